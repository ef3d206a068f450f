package dev.voiceplane.telephony.repository;

import dev.voiceplane.kit.crypto.SealedFields;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The Vonage API keys ({@code carrier_account}) of phone numbers and inline dials that rows written before sealing
 * existed keep in clear: found and replaced, in the caller's transaction, by the start-up sealing
 * ({@code service/LegacyAccounts}).
 */
@ApplicationScoped
public class CarrierAccountRepository {

    private static final List<String> TABLES = List.of("phone_numbers", "inline_dials");

    /** A row's API key in clear; {@code table} is which of the two tables holds the row. */
    public record ClearAccount(String table, String orgId, UUID id, String account) {
    }

    /** Every Vonage row whose API key is not sealed, each locked ({@code for update}) until the transaction ends. */
    public List<ClearAccount> lockClearVonageAccounts() {
        List<ClearAccount> found = new ArrayList<>();
        for (String table : TABLES) {
            @SuppressWarnings("unchecked")
            List<Object[]> rows = Panache.getEntityManager().createNativeQuery("select org_id, id, carrier_account from"
                            + " {h-schema}" + table + " where carrier = 'vonage' and carrier_account not like :sealed"
                            + " for update")
                    .setParameter("sealed", SealedFields.PREFIX + "%")
                    .getResultList();
            for (Object[] row : rows) {
                found.add(new ClearAccount(table, (String) row[0], (UUID) row[1], (String) row[2]));
            }
        }
        return found;
    }

    /** Replaces the row's API key with {@code sealed}; how many rows changed (1, or 0 when the row is gone). */
    public int replace(ClearAccount row, String sealed) {
        return Panache.getEntityManager().createNativeQuery("update {h-schema}" + row.table()
                        + " set carrier_account = :account where org_id = :org and id = :id")
                .setParameter("account", sealed)
                .setParameter("org", row.orgId())
                .setParameter("id", row.id())
                .executeUpdate();
    }
}
