package dev.voiceplane.telephony.carrier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Supplier;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Twilio as this service uses it: find a number in an account and point its voice URL and status callback at the
 * platform (and back), place, redirect and end calls. Every failure is a {@link CarrierFailure}: rejected with Twilio's own
 * message ({@code "Authenticate"}, ...) when Twilio answered 4xx, unavailable when it did not answer or failed.
 */
@ApplicationScoped
public class TwilioCarrier {

    /** A number as Twilio holds it in the account: its SID and what its webhooks point at now. */
    public record TwilioNumber(String sid, String voiceUrl, String statusCallback) {
    }

    private final TwilioApi api;
    private final ObjectMapper json;

    public TwilioCarrier(@RestClient TwilioApi api, ObjectMapper json) {
        this.api = api;
        this.json = json;
    }

    /** The number in the account; rejected when the credentials are refused or the account does not own it. */
    public TwilioNumber find(String accountSid, String authToken, String number) {
        JsonNode answer = call(() -> api.findNumber(basic(accountSid, authToken), accountSid, number));
        JsonNode numbers = answer.path("incoming_phone_numbers");
        for (JsonNode candidate : numbers) {
            if (number.equals(candidate.path("phone_number").asText())) {
                return new TwilioNumber(candidate.path("sid").asText(), text(candidate, "voice_url"),
                        text(candidate, "status_callback"));
            }
        }
        throw CarrierFailure.rejected("twilio account " + accountSid + " does not own the number " + number, 404);
    }

    /** Sets the number's voice URL (POST) and status callback (POST). */
    public void configure(String accountSid, String authToken, String numberSid, String voiceUrl, String statusCallback) {
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        form.add("VoiceUrl", voiceUrl == null ? "" : voiceUrl);
        form.add("VoiceMethod", "POST");
        form.add("StatusCallback", statusCallback == null ? "" : statusCallback);
        form.add("StatusCallbackMethod", "POST");
        call(() -> api.updateNumber(basic(accountSid, authToken), accountSid, numberSid, form));
    }

    /** Places a call ({@code Calls.json}); the answer's {@code sid} is the carrier call id. */
    public JsonNode createCall(String accountSid, String authToken, MultivaluedMap<String, String> form) {
        return call(() -> api.createCall(basic(accountSid, authToken), accountSid, form));
    }

    /** Ends a call: {@code Status=completed} hangs up a call in progress and cancels one still ringing. */
    public void hangUp(String accountSid, String authToken, String callSid) {
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        form.add("Status", "completed");
        call(() -> api.updateCall(basic(accountSid, authToken), accountSid, callSid, form));
    }

    /** Redirects a live call to new TwiML (Twilio's call update with {@code Twiml}): a transfer's {@code <Dial>}. */
    public void redirect(String accountSid, String authToken, String callSid, String twiml) {
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        form.add("Twiml", twiml);
        call(() -> api.updateCall(basic(accountSid, authToken), accountSid, callSid, form));
    }

    private JsonNode call(Supplier<Response> request) {
        return CarrierResponses.read(json, "twilio", request, TwilioCarrier::reason);
    }

    /** Twilio's error body: {@code {"code": 20003, "message": "Authenticate", ...}}. */
    private static String reason(JsonNode error) {
        String message = error.path("message").asText("");
        String code = error.path("code").asText("");
        return message.isEmpty() ? "" : message + (code.isEmpty() ? "" : " (code " + code + ")");
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
