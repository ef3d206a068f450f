package dev.voiceplane.telephony.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.contracts.assistant.VoicemailDetection;
import dev.voiceplane.contracts.catalog.Providers;
import dev.voiceplane.contracts.telephony.DialAnswer;
import dev.voiceplane.contracts.telephony.DialRequest;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.telephony.carrier.CarrierFailure;
import dev.voiceplane.telephony.carrier.TwiML;
import dev.voiceplane.telephony.carrier.TwilioCarrier;
import dev.voiceplane.telephony.carrier.VonageCarrier;
import dev.voiceplane.telephony.carrier.VonageDocuments;
import dev.voiceplane.telephony.domain.Carrier;
import dev.voiceplane.telephony.domain.PhoneNumber;
import dev.voiceplane.telephony.repository.InlineDialRepository;
import dev.voiceplane.telephony.repository.OutboundCallRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Places and ends carrier calls for call-service. A dial is idempotent on call-service's call id: the id is claimed
 * in one short transaction, the carrier is asked outside any transaction, and the carrier's call id recorded in a
 * second one; a retry gets the recorded call, a concurrent duplicate a 409, and a carrier refusal frees the id.
 */
@ApplicationScoped
public class OutboundCalls {

    /** Twilio's status callback events, all four, so call-service sees every transition. */
    static final List<String> STATUS_EVENTS = List.of("initiated", "ringing", "answered", "completed");

    private final PhoneNumberService numbers;
    private final OutboundCallRepository placed;
    private final InlineDialRepository inline;
    private final Secrets secrets;
    private final TwilioCarrier twilio;
    private final VonageCarrier vonage;
    private final WebhookAddresses addresses;
    private final ObjectMapper json;
    private final Optional<String> streamUrl;

    private final StreamParameters streams;

    public OutboundCalls(PhoneNumberService numbers, OutboundCallRepository placed, InlineDialRepository inline,
            Secrets secrets,
            TwilioCarrier twilio, VonageCarrier vonage, WebhookAddresses addresses, ObjectMapper json,
            @ConfigProperty(name = "voice.runtime.stream-url") Optional<String> streamUrl, StreamParameters streams) {
        this.streams = streams;
        this.numbers = numbers;
        this.placed = placed;
        this.inline = inline;
        this.secrets = secrets;
        this.twilio = twilio;
        this.vonage = vonage;
        this.addresses = addresses;
        this.json = json;
        this.streamUrl = streamUrl.filter(url -> !url.isBlank());
    }

    /** The placed call, and whether this request placed it (201) or found it placed before (200). */
    public record Dialled(DialAnswer answer, boolean created) {
    }

    public Dialled dial(String orgId, UUID phoneNumberId, DialRequest request) {
        PhoneNumber number = numbers.owned(orgId, phoneNumberId);
        requireRuntime();
        if (inline.find(orgId, request.callId()).isPresent()) {
            throw ApiException.conflict("call " + request.callId() + " was dialled from another phone number");
        }
        boolean claimed = QuarkusTransaction.requiringNew().call(
                () -> placed.claim(orgId, request.callId(), phoneNumberId, number.carrier));
        if (!claimed) {
            return new Dialled(earlier(orgId, phoneNumberId, request.callId()), false);
        }
        try {
            DialAnswer answer = place(number, request);
            QuarkusTransaction.requiringNew().run(() -> placed.placed(orgId, request.callId(),
                    answer.phoneCallProviderId(), answer.phoneCallProviderDetails().toString()));
            return new Dialled(answer, true);
        } catch (RuntimeException failure) {
            QuarkusTransaction.requiringNew().run(() -> placed.release(orgId, request.callId()));
            throw answerTo(failure);
        }
    }

    /** Dials are answered 503 while the voice runtime is not configured: there would be nothing to connect to. */
    void requireRuntime() {
        if (streamUrl.isEmpty()) {
            throw ApiException.unavailable("the voice runtime is not configured (VOICE_RUNTIME_STREAM_URL); nothing was dialled");
        }
    }

    /** Asks the number's carrier for the call (no transaction open). */
    DialAnswer place(PhoneNumber number, DialRequest request) {
        return number.carrier() == Carrier.TWILIO ? dialTwilio(number, request) : dialVonage(number, request);
    }

    /** What call-service is told when a dial failed: the carrier's refusal (422), or 503 when it may be retried. */
    static RuntimeException answerTo(RuntimeException failure) {
        if (failure instanceof CarrierFailure carrier) {
            return carrier.rejected()
                    ? new CarrierRefusal(carrier.getMessage())
                    : ApiException.unavailable(carrier.getMessage() + "; nothing was dialled, the call id may be retried");
        }
        return failure;
    }

    /** Ends a live call of the number; ending one that has already ended is the carrier's to answer. */
    public void hangUp(String orgId, UUID phoneNumberId, String carrierCallId) {
        hangUp(numbers.owned(orgId, phoneNumberId), carrierCallId);
    }

    /** Ends a carrier call of this number (imported, or read back from an inline dial). */
    void hangUp(PhoneNumber number, String carrierCallId) {
        try {
            if (number.carrier() == Carrier.TWILIO) {
                twilio.hangUp(number.carrierAccount, secrets.open(number, Secrets.AUTH_TOKEN, number.twilioAuthToken),
                        carrierCallId);
            } else {
                vonage.hangUp(number.vonageApplicationId,
                        secrets.open(number, Secrets.VONAGE_PRIVATE_KEY, number.vonagePrivateKey), carrierCallId);
            }
        } catch (CarrierFailure failure) {
            throw failure.rejected() ? new CarrierRefusal(failure.getMessage()) : ApiException.unavailable(failure.getMessage());
        }
    }

    private DialAnswer earlier(String orgId, UUID phoneNumberId, String callId) {
        OutboundCallRepository.Placed earlier = placed.find(orgId, callId)
                .orElseThrow(() -> ApiException.conflict("call " + callId + " was being dialled; try again"));
        if (!earlier.phoneNumberId().equals(phoneNumberId)) {
            throw ApiException.conflict("call " + callId + " was dialled from another phone number");
        }
        if (earlier.carrierCallId() == null) {
            throw ApiException.conflict("call " + callId + " is being dialled; try again");
        }
        PhoneNumber number = numbers.owned(orgId, phoneNumberId);
        try {
            return new DialAnswer(callId, number.carrier, earlier.carrierCallId(), json.readTree(earlier.details()));
        } catch (IOException e) {
            throw new IllegalStateException("stored dial details are not JSON", e);
        }
    }

    private DialAnswer dialTwilio(PhoneNumber number, DialRequest request) {
        String statusCallback = addresses.of(WebhookAddresses.TWILIO_STATUS, "callId=" + encode(request.callId()));
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        form.add("To", request.customer().number());
        form.add("From", number.number);
        form.add("Twiml", TwiML.connectStream(streamUrl.get(), streams.of(number.orgId, request.callId())));
        form.add("StatusCallback", statusCallback);
        form.add("StatusCallbackMethod", "POST");
        STATUS_EVENTS.forEach(event -> form.add("StatusCallbackEvent", event));
        if (request.customer().extension() != null && !request.customer().extension().isEmpty()) {
            form.add("SendDigits", request.customer().extension());
        }
        if (request.maxDurationSeconds() != null) {
            form.add("TimeLimit", request.maxDurationSeconds().toString());
        }
        ObjectNode details = json.createObjectNode()
                .put("to", request.customer().number()).put("from", number.number)
                .put("statusCallback", statusCallback).put("statusCallbackEvent", String.join(" ", STATUS_EVENTS));
        machineDetection(number, request, form, details);
        JsonNode created = twilio.createCall(number.carrierAccount,
                secrets.open(number, Secrets.AUTH_TOKEN, number.twilioAuthToken), form);
        String sid = created.path("sid").asText("");
        if (sid.isEmpty()) {
            throw CarrierFailure.unavailable("twilio created a call without a sid");
        }
        return new DialAnswer(request.callId(), number.carrier, sid, details);
    }

    /**
     * Twilio's answering-machine detection from the assistant's {@code voicemailDetection} (provider twilio, not
     * disabled): asynchronous, so the call connects at once and the result arrives at {@code /twilio/amd}. Waiting
     * for the greeting's end ({@code DetectMessageEnd}) only when a {@code machine_end_*} type is asked for.
     */
    private void machineDetection(PhoneNumber number, DialRequest request, MultivaluedMap<String, String> form,
            ObjectNode details) {
        VoicemailDetection detection = request.voicemailDetection();
        if (detection == null || (detection.provider() != null && !"twilio".equals(Providers.canonical(detection.provider())))
                || Boolean.FALSE.equals(detection.enabled())) {
            return;
        }
        List<String> types = detection.voicemailDetectionTypes();
        boolean messageEnd = types == null || types.isEmpty()
                || types.stream().anyMatch(type -> type.startsWith("machine_end"));
        String mode = messageEnd ? "DetectMessageEnd" : "Enable";
        String amdCallback = addresses.of(WebhookAddresses.TWILIO_AMD,
                "phoneNumberId=" + number.id + "&callId=" + encode(request.callId()));
        form.add("MachineDetection", mode);
        form.add("AsyncAmd", "true");
        form.add("AsyncAmdStatusCallback", amdCallback);
        form.add("AsyncAmdStatusCallbackMethod", "POST");
        details.put("machineDetection", mode).put("asyncAmd", "true").put("asyncAmdStatusCallback", amdCallback);
        threshold(form, details, "MachineDetectionTimeout", "machineDetectionTimeout", detection.machineDetectionTimeout());
        threshold(form, details, "MachineDetectionSpeechThreshold", "machineDetectionSpeechThreshold",
                detection.machineDetectionSpeechThreshold());
        threshold(form, details, "MachineDetectionSpeechEndThreshold", "machineDetectionSpeechEndThreshold",
                detection.machineDetectionSpeechEndThreshold());
        threshold(form, details, "MachineDetectionSilenceTimeout", "machineDetectionSilenceTimeout",
                detection.machineDetectionSilenceTimeout());
    }

    private static void threshold(MultivaluedMap<String, String> form, ObjectNode details, String parameter,
            String field, BigDecimal value) {
        if (value != null) {
            form.add(parameter, value.stripTrailingZeros().toPlainString());
            details.put(field, value);
        }
    }

    private DialAnswer dialVonage(PhoneNumber number, DialRequest request) {
        boolean machineDetection = request.voicemailDetection() != null
                && !Boolean.FALSE.equals(request.voicemailDetection().enabled());
        VonageDocuments.Call call = new VonageDocuments.Call(
                List.of(new VonageDocuments.Phone(VonageCarrier.msisdn(request.customer().number()))),
                new VonageDocuments.Phone(VonageCarrier.msisdn(number.number)),
                List.of(new VonageDocuments.Connect(null, List.of(VonageDocuments.WebSocket.audio(streamUrl.get(),
                        streams.of(number.orgId, request.callId()))))),
                List.of(addresses.of(WebhookAddresses.VONAGE_EVENT)), "POST",
                machineDetection ? "continue" : null, request.maxDurationSeconds());
        JsonNode created = vonage.createCall(number.vonageApplicationId,
                secrets.open(number, Secrets.VONAGE_PRIVATE_KEY, number.vonagePrivateKey), call);
        String uuid = created.path("uuid").asText("");
        if (uuid.isEmpty()) {
            throw CarrierFailure.unavailable("vonage created a call without a uuid");
        }
        ObjectNode details = json.createObjectNode().put("to", request.customer().number()).put("from", number.number);
        return new DialAnswer(request.callId(), number.carrier, uuid, details);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
