package dev.voiceplane.telephony.repository;

import dev.voiceplane.kit.persistence.OrgScopedId;
import dev.voiceplane.telephony.domain.PhoneNumber;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class PhoneNumberRepository implements PanacheRepositoryBase<PhoneNumber, OrgScopedId> {

    public Optional<PhoneNumber> findOwned(String orgId, UUID id) {
        return findByIdOptional(new OrgScopedId(orgId, id));
    }

    /** The same, holding the row until the transaction ends so that concurrent changes apply one after the other. */
    public Optional<PhoneNumber> findOwnedForChange(String orgId, UUID id) {
        return findByIdOptional(new OrgScopedId(orgId, id), LockModeType.PESSIMISTIC_WRITE);
    }

    /** Whichever organisation holds this number (at most one: the number is unique). */
    public Optional<PhoneNumber> findByNumber(String number) {
        return find("number", number).firstResultOptional();
    }

    /**
     * The number a carrier webhook is about. Deliberately not scoped by organisation: a carrier knows only its
     * account and the number, and the unique number index makes the answer one row at most.
     */
    public Optional<PhoneNumber> findForWebhook(String carrier, String carrierAccount, String number) {
        return find("carrier = ?1 and carrierAccount = ?2 and number = ?3", carrier, carrierAccount, number)
                .firstResultOptional();
    }

    /** A number by its id alone, for webhooks whose URL names it (answering-machine results); same rule as above. */
    public Optional<PhoneNumber> findForWebhook(String carrier, String carrierAccount, UUID id) {
        return find("carrier = ?1 and carrierAccount = ?2 and id = ?3", carrier, carrierAccount, id)
                .firstResultOptional();
    }
}
