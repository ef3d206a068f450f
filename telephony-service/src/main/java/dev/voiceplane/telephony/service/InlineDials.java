package dev.voiceplane.telephony.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.contracts.telephony.DialAnswer;
import dev.voiceplane.contracts.telephony.InlineDialRequest;
import dev.voiceplane.contracts.telephony.InlinePhoneNumber;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.telephony.api.PhoneNumberRequest;
import dev.voiceplane.telephony.carrier.CarrierFailure;
import dev.voiceplane.telephony.carrier.VonageCarrier;
import dev.voiceplane.contracts.credential.CredentialSecret;
import dev.voiceplane.telephony.domain.Carrier;
import dev.voiceplane.telephony.domain.PhoneNumber;
import dev.voiceplane.telephony.repository.InlineDialRepository;
import dev.voiceplane.telephony.repository.OutboundCallRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * {@code POST /internal/phone-number/dial-inline} (docs/call-contracts.md §3): a dial from a number given inline,
 * not imported. Same steps and answers as {@link OutboundCalls#dial}: the call id is claimed in one short
 * transaction (with what the call's callbacks will be verified with: the carrier account, the auth token sealed, the
 * vonage credential), the carrier is asked outside any transaction, its call id recorded in a second one; a
 * carrier refusal frees the call id. Nothing is provisioned on the number: Twilio's callbacks are addressed per
 * call, and for Vonage a Voice application is created for the call (its webhooks ours, signed), since Vonage places
 * calls only through an application.
 */
@ApplicationScoped
public class InlineDials {

    private static final Logger LOG = Logger.getLogger(InlineDials.class);

    private final OutboundCalls calls;
    private final PhoneNumberService numbers;
    private final InlineDialRepository inline;
    private final OutboundCallRepository placed;
    private final VonageCarrier vonage;
    private final WebhookAddresses addresses;
    private final Secrets secrets;
    private final ObjectMapper json;

    public InlineDials(OutboundCalls calls, PhoneNumberService numbers, InlineDialRepository inline,
            OutboundCallRepository placed, VonageCarrier vonage, WebhookAddresses addresses, Secrets secrets,
            ObjectMapper json) {
        this.calls = calls;
        this.numbers = numbers;
        this.inline = inline;
        this.placed = placed;
        this.vonage = vonage;
        this.addresses = addresses;
        this.secrets = secrets;
        this.json = json;
    }

    public OutboundCalls.Dialled dial(String orgId, InlineDialRequest request) {
        InlinePhoneNumber given = request.phoneNumber();
        PhoneNumberRequest body = new PhoneNumberRequest(given.provider(), given.number(), null,
                given.twilioAccountSid(), given.twilioAuthToken(), null, given.credentialId(), given.name(),
                given.assistantId(), given.serverUrl(), given.serverUrlSecret());
        List<String> problems = body.problems(null);
        if (!problems.isEmpty()) {
            // Named under phoneNumber, as bean validation names nested fields.
            throw ApiException.invalid(problems.stream().map(problem -> problem.startsWith("property ")
                    ? "property phoneNumber." + problem.substring("property ".length())
                    : "phoneNumber." + problem).toList());
        }
        calls.requireRuntime();
        String callId = request.callId();
        if (placed.find(orgId, callId).isPresent()) {
            throw ApiException.conflict("call " + callId + " was dialled from another phone number");
        }
        Carrier carrier = Carrier.of(given.provider());
        CredentialSecret credential = carrier == Carrier.VONAGE
                ? numbers.requireVonageCredential(orgId, given.credentialId())
                : null;
        PhoneNumber number = new PhoneNumber();
        number.stampCreated(orgId, null);
        number.provider = given.provider();
        number.carrier = carrier.id();
        number.number = given.number();
        String account = carrier == Carrier.TWILIO ? given.twilioAccountSid() : credential.apiKey();
        number.carrierAccount = secrets.account(number, account);
        number.twilioAuthToken = secrets.seal(number, Secrets.AUTH_TOKEN, given.twilioAuthToken());
        number.credentialId = carrier == Carrier.VONAGE ? given.credentialId() : null;

        boolean claimed = QuarkusTransaction.requiringNew().call(() -> inline.claim(callId, number));
        if (!claimed) {
            return new OutboundCalls.Dialled(earlier(orgId, callId, number, account), false);
        }
        try {
            if (carrier == Carrier.VONAGE) {
                VonageCarrier.VonageApplication application = vonage.createApplication(credential.apiKey(),
                        credential.apiSecret(), "voiceplane call " + callId, addresses.of(WebhookAddresses.VONAGE_ANSWER),
                        addresses.of(WebhookAddresses.VONAGE_EVENT));
                number.vonageApplicationId = application.id();
                number.vonagePrivateKey = secrets.seal(number, Secrets.VONAGE_PRIVATE_KEY, application.privateKey());
                QuarkusTransaction.requiringNew().run(() -> inline.application(orgId, callId, application.id(),
                        number.vonagePrivateKey));
            }
            DialAnswer answer = calls.place(number, request.dial());
            QuarkusTransaction.requiringNew().run(() -> inline.placed(orgId, callId, answer.phoneCallProviderId(),
                    answer.phoneCallProviderDetails().toString()));
            return new OutboundCalls.Dialled(answer, true);
        } catch (RuntimeException failure) {
            QuarkusTransaction.requiringNew().run(() -> inline.release(orgId, callId));
            if (number.vonageApplicationId != null) {
                deleteQuietly(credential, number.vonageApplicationId);
            }
            throw OutboundCalls.answerTo(failure);
        }
    }

    /**
     * {@code POST /internal/phone-number/hangup-inline}: ends a call dialled from an inline number, found by its
     * carrier call id in the organisation and hung up with what was kept for it; 404 when there is no such call.
     */
    public void hangUp(String orgId, String carrierCallId) {
        PhoneNumber number = inline.findByCarrierCall(orgId, carrierCallId)
                .orElseThrow(() -> ApiException.notFound("Call " + carrierCallId + " of an inline number"));
        calls.hangUp(number, carrierCallId);
    }

    /** A repeated dial: the same answer when it was placed from the same number; otherwise a conflict. */
    private DialAnswer earlier(String orgId, String callId, PhoneNumber asked, String askedAccount) {
        InlineDialRepository.Dialled earlier = inline.find(orgId, callId)
                .orElseThrow(() -> ApiException.conflict("call " + callId + " was being dialled; try again"));
        PhoneNumber number = earlier.number();
        if (!number.carrier.equals(asked.carrier) || !number.number.equals(asked.number)
                || !secrets.accountIs(number, askedAccount)) {
            throw ApiException.conflict("call " + callId + " was dialled from another phone number");
        }
        if (earlier.carrierCallId() == null) {
            throw ApiException.conflict("call " + callId + " is being dialled; try again");
        }
        try {
            return new DialAnswer(callId, number.carrier, earlier.carrierCallId(), json.readTree(earlier.details()));
        } catch (IOException e) {
            throw new IllegalStateException("stored dial details are not JSON", e);
        }
    }

    private void deleteQuietly(CredentialSecret credential, String applicationId) {
        try {
            vonage.deleteApplication(credential.apiKey(), credential.apiSecret(), applicationId);
        } catch (CarrierFailure cleanup) {
            LOG.warnf("vonage application %s created for a failed inline dial could not be deleted: %s", applicationId,
                    cleanup.getMessage());
        }
    }
}
