package dev.voiceplane.telephony.repository;

import dev.voiceplane.telephony.domain.PhoneNumber;
import dev.voiceplane.telephony.service.Secrets;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Calls dialled from an inline number, keyed by call-service's call id (the same claim / placed / release steps as
 * {@link OutboundCallRepository}). A row is read back as a detached, never persisted {@link PhoneNumber} carrying
 * the row's id, so dialling and webhook verification treat it exactly as an imported number.
 */
@ApplicationScoped
public class InlineDialRepository {

    private final Secrets secrets;

    public InlineDialRepository(Secrets secrets) {
        this.secrets = secrets;
    }

    private static final String COLUMNS = "org_id, id, provider, carrier, number, carrier_account, twilio_auth_token,"
            + " credential_id, vonage_application_id, vonage_private_key, carrier_call_id,"
            + " details::text, call_id";

    /** A recorded inline dial: its number, and the carrier call once known (null while the carrier is asked). */
    public record Dialled(PhoneNumber number, String carrierCallId, String details) {
    }

    /** True when this call id was free and is now claimed for {@code number} (whose id is the row's). */
    public boolean claim(String callId, PhoneNumber number) {
        return em().createNativeQuery("insert into {h-schema}inline_dials (org_id, call_id, id, provider, carrier, number,"
                        + " carrier_account, twilio_auth_token, credential_id, vonage_application_id, vonage_private_key,"
                        + " created_at) values (:org, :call, :id, :provider, :carrier, :number, :account,"
                        // A null binds untyped; the casts keep Postgres from reading it as text.
                        + " cast(:token as bytea), :credential, :application, cast(:key as bytea), :now)"
                        + " on conflict do nothing")
                .setParameter("org", number.orgId)
                .setParameter("call", callId)
                .setParameter("id", number.id)
                .setParameter("provider", number.provider)
                .setParameter("carrier", number.carrier)
                .setParameter("number", number.number)
                .setParameter("account", number.carrierAccount)
                .setParameter("token", number.twilioAuthToken)
                .setParameter("credential", number.credentialId)
                .setParameter("application", number.vonageApplicationId)
                .setParameter("key", number.vonagePrivateKey)
                .setParameter("now", Instant.now())
                .executeUpdate() == 1;
    }

    public Optional<Dialled> find(String orgId, String callId) {
        return first(em().createNativeQuery("select " + COLUMNS + " from {h-schema}inline_dials"
                        + " where org_id = :org and call_id = :call")
                .setParameter("org", orgId)
                .setParameter("call", callId));
    }

    /**
     * The inline number a carrier callback is about, by the call id in the URL we gave the carrier. Not scoped by
     * organisation (a carrier knows none): the account must match too (compared once found: a Vonage API key is
     * stored sealed, {@link Secrets#account}), and an id found twice answers nothing.
     */
    public Optional<PhoneNumber> findForWebhook(String carrier, String carrierAccount, String callId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em().createNativeQuery("select " + COLUMNS + " from {h-schema}inline_dials"
                        + " where carrier = :carrier and call_id = :call limit 2")
                .setParameter("carrier", carrier)
                .setParameter("call", callId)
                .getResultList();
        return rows.size() == 1
                ? Optional.of(number(rows.getFirst())).filter(number -> secrets.accountIs(number, carrierAccount))
                : Optional.empty();
    }

    /**
     * The inline number of a Vonage call, by the application created for it: Vonage's signed callbacks name it
     * ({@code application_id}) from the first event on, before this service may have recorded the call's uuid. The
     * API key the callback names must be the row's.
     */
    public Optional<PhoneNumber> findByApplication(String carrierAccount, String applicationId) {
        return first(em().createNativeQuery("select " + COLUMNS + " from {h-schema}inline_dials"
                        + " where carrier = 'vonage' and vonage_application_id = :application")
                .setParameter("application", applicationId)).map(Dialled::number)
                .filter(number -> secrets.accountIs(number, carrierAccount));
    }

    /** The inline number a carrier call of the organisation was dialled from (to hang it up). */
    public Optional<PhoneNumber> findByCarrierCall(String orgId, String carrierCallId) {
        return first(em().createNativeQuery("select " + COLUMNS + " from {h-schema}inline_dials"
                        + " where org_id = :org and carrier_call_id = :carrierCall")
                .setParameter("org", orgId)
                .setParameter("carrierCall", carrierCallId)).map(Dialled::number);
    }

    /** Records the carrier's call. */
    public void placed(String orgId, String callId, String carrierCallId, String details) {
        em().createNativeQuery("update {h-schema}inline_dials set carrier_call_id = :carrierCall,"
                        + " details = cast(:details as jsonb) where org_id = :org and call_id = :call")
                .setParameter("carrierCall", carrierCallId)
                .setParameter("details", details)
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .executeUpdate();
    }

    /** The Vonage application created for the call, once Vonage created it. */
    public void application(String orgId, String callId, String applicationId, byte[] sealedPrivateKey) {
        em().createNativeQuery("update {h-schema}inline_dials set vonage_application_id = :application,"
                        + " vonage_private_key = cast(:key as bytea) where org_id = :org and call_id = :call")
                .setParameter("application", applicationId)
                .setParameter("key", sealedPrivateKey)
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .executeUpdate();
    }

    public void release(String orgId, String callId) {
        em().createNativeQuery("delete from {h-schema}inline_dials where org_id = :org and call_id = :call"
                        + " and carrier_call_id is null")
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .executeUpdate();
    }

    private static Optional<Dialled> first(Query query) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = query.getResultList();
        return rows.stream().findFirst().map(row -> new Dialled(number(row), (String) row[10], (String) row[11]));
    }

    private static PhoneNumber number(Object[] row) {
        PhoneNumber number = new PhoneNumber();
        number.inline = true;
        number.orgId = (String) row[0];
        number.id = (UUID) row[1];
        number.provider = (String) row[2];
        number.carrier = (String) row[3];
        number.number = (String) row[4];
        number.carrierAccount = (String) row[5];
        number.twilioAuthToken = (byte[]) row[6];
        number.credentialId = (String) row[7];
        number.vonageApplicationId = (String) row[8];
        number.vonagePrivateKey = (byte[]) row[9];
        number.inlineCallId = (String) row[12];
        return number;
    }

    private static EntityManager em() {
        return Panache.getEntityManager();
    }
}
