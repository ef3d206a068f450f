package dev.voiceplane.telephony.repository;

import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.Optional;

/**
 * Transfers of live carrier calls, keyed by the carrier's call id so that a retried transfer does not redirect the
 * call twice (V6). Plain SQL on a small table, like {@link OutboundCallRepository}: claim, ask the carrier, then
 * mark it done or release the claim.
 */
@ApplicationScoped
public class CallTransferRepository {

    /** A recorded transfer: where to, and whether the carrier has done it (false while it is being asked). */
    public record Transfer(String number, boolean done) {
    }

    /** True when no transfer of this carrier call was recorded and one to {@code number} is now claimed. */
    public boolean claim(String orgId, String carrier, String carrierCallId, String number) {
        return em().createNativeQuery("insert into {h-schema}call_transfers (org_id, carrier, carrier_call_id, number,"
                        + " created_at) values (:org, :carrier, :call, :number, now()) on conflict do nothing")
                .setParameter("org", orgId)
                .setParameter("carrier", carrier)
                .setParameter("call", carrierCallId)
                .setParameter("number", number)
                .executeUpdate() == 1;
    }

    public Optional<Transfer> find(String orgId, String carrier, String carrierCallId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em().createNativeQuery("select number, transferred_at is not null"
                        + " from {h-schema}call_transfers where org_id = :org and carrier = :carrier"
                        + " and carrier_call_id = :call")
                .setParameter("org", orgId)
                .setParameter("carrier", carrier)
                .setParameter("call", carrierCallId)
                .getResultList();
        return rows.stream().findFirst().map(row -> new Transfer((String) row[0], (Boolean) row[1]));
    }

    public void done(String orgId, String carrier, String carrierCallId) {
        em().createNativeQuery("update {h-schema}call_transfers set transferred_at = now()"
                        + " where org_id = :org and carrier = :carrier and carrier_call_id = :call")
                .setParameter("org", orgId)
                .setParameter("carrier", carrier)
                .setParameter("call", carrierCallId)
                .executeUpdate();
    }

    public void release(String orgId, String carrier, String carrierCallId) {
        em().createNativeQuery("delete from {h-schema}call_transfers where org_id = :org and carrier = :carrier"
                        + " and carrier_call_id = :call and transferred_at is null")
                .setParameter("org", orgId)
                .setParameter("carrier", carrier)
                .setParameter("call", carrierCallId)
                .executeUpdate();
    }

    private static EntityManager em() {
        return Panache.getEntityManager();
    }
}
