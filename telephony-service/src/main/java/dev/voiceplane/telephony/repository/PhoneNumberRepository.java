package dev.voiceplane.telephony.repository;

import dev.voiceplane.kit.persistence.OrgScopedRepository;
import dev.voiceplane.telephony.domain.PhoneNumber;
import dev.voiceplane.telephony.service.Secrets;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class PhoneNumberRepository implements OrgScopedRepository<PhoneNumber> {

    private final Secrets secrets;

    public PhoneNumberRepository(Secrets secrets) {
        this.secrets = secrets;
    }

    /** Whichever organisation holds this number (at most one: the number is unique). */
    public Optional<PhoneNumber> findByNumber(String number) {
        return find("number", number).firstResultOptional();
    }

    /**
     * The number a carrier webhook is about. Deliberately not scoped by organisation: a carrier knows only its
     * account and the number, and the unique number index makes the answer one row at most. The row's account is
     * compared once it is found, since a Vonage API key is stored sealed ({@link Secrets#account}).
     */
    public Optional<PhoneNumber> findForWebhook(String carrier, String carrierAccount, String number) {
        return find("carrier = ?1 and number = ?2", carrier, number).firstResultOptional()
                .filter(row -> secrets.accountIs(row, carrierAccount));
    }

    /** A number by its id alone, for webhooks whose URL names it (answering-machine results); same rule as above. */
    public Optional<PhoneNumber> findForWebhook(String carrier, String carrierAccount, UUID id) {
        return find("carrier = ?1 and id = ?2", carrier, id).firstResultOptional()
                .filter(row -> secrets.accountIs(row, carrierAccount));
    }
}
