package dev.voiceplane.telephony.service;

import dev.voiceplane.telephony.domain.PhoneNumber;
import dev.voiceplane.telephony.repository.CarrierAccountRepository;
import dev.voiceplane.telephony.repository.CarrierAccountRepository.ClearAccount;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
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

    private final Secrets secrets;
    private final CarrierAccountRepository accounts;

    public LegacyAccounts(Secrets secrets, CarrierAccountRepository accounts) {
        this.secrets = secrets;
        this.accounts = accounts;
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
        for (ClearAccount row : accounts.lockClearVonageAccounts()) {
            PhoneNumber number = new PhoneNumber();
            number.orgId = row.orgId();
            number.id = row.id();
            number.carrier = "vonage";
            sealed += accounts.replace(row, secrets.account(number, row.account()));
        }
        return sealed;
    }
}
