package dev.voiceplane.telephony.repository;

import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Outbound calls placed for call-service, keyed by its call id so that a retried dial does not dial twice. Plain
 * SQL on a small table: a claim row is inserted first (race-safe on the primary key), the carrier asked, then the
 * carrier's call id recorded, or the claim dropped when the carrier refused.
 */
@ApplicationScoped
public class OutboundCallRepository {

    /** A recorded dial: which number, and the carrier call once known (null while the carrier is being asked). */
    public record Placed(UUID phoneNumberId, String carrierCallId, String details) {
    }

    /** True when this call id was free and is now claimed for the number. */
    public boolean claim(String orgId, String callId, UUID phoneNumberId, String carrier) {
        return em().createNativeQuery("insert into {h-schema}outbound_calls (org_id, call_id, phone_number_id, carrier,"
                        + " created_at) values (:org, :call, :number, :carrier, now()) on conflict do nothing")
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .setParameter("number", phoneNumberId)
                .setParameter("carrier", carrier)
                .executeUpdate() == 1;
    }

    public Optional<Placed> find(String orgId, String callId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em().createNativeQuery("select phone_number_id, carrier_call_id, details::text"
                        + " from {h-schema}outbound_calls where org_id = :org and call_id = :call")
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .getResultList();
        return rows.stream().findFirst().map(row -> new Placed((UUID) row[0], (String) row[1], (String) row[2]));
    }

    public void placed(String orgId, String callId, String carrierCallId, String details) {
        em().createNativeQuery("update {h-schema}outbound_calls set carrier_call_id = :carrierCall,"
                        + " details = cast(:details as jsonb) where org_id = :org and call_id = :call")
                .setParameter("carrierCall", carrierCallId)
                .setParameter("details", details)
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .executeUpdate();
    }

    public void release(String orgId, String callId) {
        em().createNativeQuery("delete from {h-schema}outbound_calls where org_id = :org and call_id = :call"
                        + " and carrier_call_id is null")
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .executeUpdate();
    }

    private static EntityManager em() {
        return Panache.getEntityManager();
    }
}
