package dev.voiceplane.telephony.service;

import dev.voiceplane.kit.crypto.SealedFields;
import dev.voiceplane.telephony.domain.PhoneNumber;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Seals, once, the Vonage API keys that rows written before sealing existed keep in clear in {@code carrier_account}
 * (of phone numbers and inline dials; see {@link Secrets#account}). Runs at start-up, after Flyway; a row already
 * sealed is left alone, so every start after the first finds nothing to do. A failure is logged and the service
 * starts anyway: such a row still matches its webhooks (a value in clear is compared as it is) and is sealed at the
 * next start.
 */
@Singleton
public class LegacyAccounts {

    private static final Logger LOG = Logger.getLogger(LegacyAccounts.class);
    private static final List<String> TABLES = List.of("phone_numbers", "inline_dials");

    private final Secrets secrets;

    public LegacyAccounts(Secrets secrets) {
        this.secrets = secrets;
    }

    void sealAtStart(@Observes StartupEvent started) {
        try {
            int sealed = QuarkusTransaction.requiringNew().call(this::seal);
            if (sealed > 0) {
                LOG.infof("sealed the vonage API key of %d rows written before it was sealed", sealed);
            }
        } catch (RuntimeException e) {
            LOG.warnf("vonage API keys in clear were not sealed (%s); trying again at the next start", e.toString());
        }
    }

    /** Seals what is in clear, in the caller's transaction; returns how many rows were sealed. */
    public int seal() {
        int sealed = 0;
        for (String table : TABLES) {
            @SuppressWarnings("unchecked")
            List<Object[]> rows = Panache.getEntityManager().createNativeQuery("select org_id, id, carrier_account from"
                            + " {h-schema}" + table + " where carrier = 'vonage' and carrier_account not like :sealed"
                            + " for update")
                    .setParameter("sealed", SealedFields.PREFIX + "%")
                    .getResultList();
            for (Object[] row : rows) {
                PhoneNumber number = new PhoneNumber();
                number.orgId = (String) row[0];
                number.id = (UUID) row[1];
                number.carrier = "vonage";
                sealed += Panache.getEntityManager().createNativeQuery("update {h-schema}" + table
                                + " set carrier_account = :account where org_id = :org and id = :id")
                        .setParameter("account", secrets.account(number, (String) row[2]))
                        .setParameter("org", number.orgId)
                        .setParameter("id", number.id)
                        .executeUpdate();
            }
        }
        return sealed;
    }
}
