package dev.voiceplane.telephony.service;

import dev.voiceplane.telephony.carrier.CarrierFailure;
import dev.voiceplane.telephony.carrier.TwilioCarrier;
import dev.voiceplane.telephony.carrier.VonageCarrier;
import dev.voiceplane.contracts.credential.CredentialSecret;
import dev.voiceplane.telephony.domain.PhoneNumber;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Points an imported number at this platform on its carrier, and releases it on delete. Runs before (import) and
 * outside any transaction: no database connection is held while a carrier answers.
 */
@ApplicationScoped
public class NumberProvisioning {

    private static final Logger LOG = Logger.getLogger(NumberProvisioning.class);

    /** What provisioning set up, kept on the row so that a delete can undo it. */
    public record Provisioned(String carrierAccount, String carrierNumberId, String previousVoiceUrl,
            String previousStatusCallback, String vonageApplicationId, String vonagePrivateKey,
            String previousVonageApplicationId) {
        @Override
        public String toString() {
            // Not the account: for vonage it is the API key, a credential secret.
            return "Provisioned[number=" + carrierNumberId + "]";
        }
    }

    private final TwilioCarrier twilio;
    private final VonageCarrier vonage;
    private final WebhookAddresses addresses;

    public NumberProvisioning(TwilioCarrier twilio, VonageCarrier vonage, WebhookAddresses addresses) {
        this.twilio = twilio;
        this.vonage = vonage;
        this.addresses = addresses;
    }

    /** Finds the number in the Twilio account and sets its voice URL and status callback to ours. */
    public Provisioned twilio(String accountSid, String authToken, String number) {
        TwilioCarrier.TwilioNumber found = twilio.find(accountSid, authToken, number);
        String inbound = addresses.of(WebhookAddresses.TWILIO_INBOUND);
        String status = addresses.of(WebhookAddresses.TWILIO_STATUS);
        twilio.configure(accountSid, authToken, found.sid(), inbound, status);
        // A re-import finds our own addresses there already: releasing must not "restore" them.
        return new Provisioned(accountSid, found.sid(), inbound.equals(found.voiceUrl()) ? null : found.voiceUrl(),
                status.equals(found.statusCallback()) ? null : found.statusCallback(), null, null, null);
    }

    /**
     * Checks the Vonage account owns the number, creates a Voice application whose webhooks are ours (signed
     * callbacks on) and links the number to it. The number's previous application is remembered for the delete.
     */
    public Provisioned vonage(CredentialSecret credential, String number) {
        VonageCarrier.VonageNumber found = vonage.find(credential.apiKey(), credential.apiSecret(), number);
        VonageCarrier.VonageApplication application = vonage.createApplication(credential.apiKey(),
                credential.apiSecret(), "voiceplane " + number, addresses.of(WebhookAddresses.VONAGE_ANSWER),
                addresses.of(WebhookAddresses.VONAGE_EVENT));
        try {
            vonage.link(credential.apiKey(), credential.apiSecret(), found, application.id());
        } catch (CarrierFailure failure) {
            deleteQuietly(credential, application.id());
            throw failure;
        }
        return new Provisioned(credential.apiKey(), found.country(), null, null, application.id(),
                application.privateKey(), found.applicationId());
    }

    /** Restores the Twilio number's previous voice URL and status callback. */
    public void releaseTwilio(PhoneNumber number, String authToken) {
        twilio.configure(number.carrierAccount, authToken, number.carrierNumberId, number.previousVoiceUrl,
                number.previousStatusCallback);
    }

    /**
     * Links the Vonage number back to the application it had before the import (when it had one), or unlinks it,
     * then deletes the application created for it. Vonage refusing the earlier application (deleted since, say) is
     * logged and the number is unlinked instead: it must not stay pointed at an application about to be deleted.
     */
    public void releaseVonage(PhoneNumber number, CredentialSecret credential) {
        VonageCarrier.VonageNumber held = new VonageCarrier.VonageNumber(VonageCarrier.msisdn(number.number),
                number.carrierNumberId, number.vonageApplicationId);
        String previous = number.previousVonageApplicationId;
        if (previous != null && !previous.equals(number.vonageApplicationId)) {
            try {
                vonage.link(credential.apiKey(), credential.apiSecret(), held, previous);
            } catch (CarrierFailure failure) {
                if (!failure.rejected()) {
                    throw failure;
                }
                LOG.warnf("phone number %s: vonage refused to link it back to its earlier application %s (%s); unlinked",
                        number.id, previous, failure.getMessage());
                vonage.link(credential.apiKey(), credential.apiSecret(), held, null);
            }
        } else {
            vonage.link(credential.apiKey(), credential.apiSecret(), held, null);
        }
        if (number.vonageApplicationId != null) {
            vonage.deleteApplication(credential.apiKey(), credential.apiSecret(), number.vonageApplicationId);
        }
    }

    private void deleteQuietly(CredentialSecret credential, String applicationId) {
        try {
            vonage.deleteApplication(credential.apiKey(), credential.apiSecret(), applicationId);
        } catch (CarrierFailure cleanup) {
            LOG.warnf("vonage application %s created for a failed import could not be deleted: %s", applicationId,
                    cleanup.getMessage());
        }
    }
}
