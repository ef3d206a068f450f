package dev.voiceplane.telephony.service;

import dev.voiceplane.contracts.telephony.InlineTransferRequest;
import dev.voiceplane.contracts.telephony.TransferAnswer;
import dev.voiceplane.contracts.telephony.TransferRequest;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.telephony.carrier.CarrierFailure;
import dev.voiceplane.telephony.carrier.TwiML;
import dev.voiceplane.telephony.carrier.TwilioCarrier;
import dev.voiceplane.telephony.carrier.VonageCarrier;
import dev.voiceplane.telephony.domain.Carrier;
import dev.voiceplane.telephony.domain.PhoneNumber;
import dev.voiceplane.telephony.repository.CallTransferRepository;
import dev.voiceplane.telephony.repository.InlineDialRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Redirects a live carrier call to a phone number for call-service (docs/call-contracts.md §6), when the assistant
 * transfers the caller: Twilio's call update with a {@code <Dial>} (caller id: the number's own), Vonage's transfer to
 * an NCCO that connects the leg to the phone. Idempotent per carrier call like a dial: the transfer is claimed in
 * one short transaction, the carrier asked outside any, then the claim marked done, or released when the carrier
 * refused or could not be reached (so a later attempt may try again). A repeated request gets the first answer and
 * the carrier is not asked again (a second redirect would dial a second time).
 */
@ApplicationScoped
public class CallTransfers {

    private static final Logger LOG = Logger.getLogger(CallTransfers.class);

    private final PhoneNumberService numbers;
    private final InlineDialRepository inline;
    private final CallTransferRepository transfers;
    private final Secrets secrets;
    private final TwilioCarrier twilio;
    private final VonageCarrier vonage;

    public CallTransfers(PhoneNumberService numbers, InlineDialRepository inline, CallTransferRepository transfers,
            Secrets secrets, TwilioCarrier twilio, VonageCarrier vonage) {
        this.numbers = numbers;
        this.inline = inline;
        this.transfers = transfers;
        this.secrets = secrets;
        this.twilio = twilio;
        this.vonage = vonage;
    }

    /** A call of an imported number; 404 when the organisation has no such number. */
    public TransferAnswer transfer(String orgId, UUID phoneNumberId, TransferRequest request) {
        return transfer(numbers.owned(orgId, phoneNumberId), request.phoneCallProviderId(), request.number());
    }

    /** A call dialled from an inline number, found by its carrier call id; 404 when the organisation has none. */
    public TransferAnswer transferInline(String orgId, InlineTransferRequest request) {
        PhoneNumber number = inline.findByCarrierCall(orgId, request.phoneCallProviderId())
                .orElseThrow(() -> ApiException.notFound("Call " + request.phoneCallProviderId() + " of an inline number"));
        return transfer(number, request.phoneCallProviderId(), request.number());
    }

    private TransferAnswer transfer(PhoneNumber number, String carrierCallId, String to) {
        String orgId = number.orgId;
        String carrier = number.carrier;
        TransferAnswer answer = new TransferAnswer(carrier, carrierCallId, to, true);
        boolean claimed = QuarkusTransaction.requiringNew().call(() -> transfers.claim(orgId, carrier, carrierCallId, to));
        if (!claimed) {
            CallTransferRepository.Transfer earlier = transfers.find(orgId, carrier, carrierCallId)
                    .orElseThrow(() -> ApiException.conflict("call " + carrierCallId + " was being transferred; try again"));
            if (!earlier.number().equals(to)) {
                throw ApiException.conflict("call " + carrierCallId + " was transferred to another number");
            }
            if (!earlier.done()) {
                throw ApiException.conflict("call " + carrierCallId + " is being transferred; try again");
            }
            return answer;
        }
        try {
            if (number.carrier() == Carrier.TWILIO) {
                twilio.redirect(number.carrierAccount, secrets.open(number, Secrets.AUTH_TOKEN, number.twilioAuthToken),
                        carrierCallId, TwiML.dial(number.number, to));
            } else {
                vonage.transfer(number.vonageApplicationId,
                        secrets.open(number, Secrets.VONAGE_PRIVATE_KEY, number.vonagePrivateKey), carrierCallId,
                        number.number, to);
            }
        } catch (RuntimeException failure) {
            QuarkusTransaction.requiringNew().run(() -> transfers.release(orgId, carrier, carrierCallId));
            LOG.infof("transfer of %s call %s refused or failed: %s", carrier, carrierCallId, failure.getMessage());
            if (failure instanceof CarrierFailure refused) {
                throw refused.rejected() ? new CarrierRefusal(refused.getMessage())
                        : ApiException.unavailable(refused.getMessage() + "; the call was not transferred, try again");
            }
            throw failure;
        }
        QuarkusTransaction.requiringNew().run(() -> transfers.done(orgId, carrier, carrierCallId));
        LOG.infof("%s call %s transferred", carrier, carrierCallId);
        return answer;
    }
}
