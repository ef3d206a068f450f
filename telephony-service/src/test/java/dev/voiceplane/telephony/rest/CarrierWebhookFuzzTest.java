package dev.voiceplane.telephony.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.voiceplane.contracts.telephony.CarrierEvent;
import dev.voiceplane.contracts.telephony.InboundCallRequest;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.fuzz.SignedWebhookFuzz;
import dev.voiceplane.kit.testing.fuzz.SignedWebhookFuzz.SignedRequest;
import dev.voiceplane.kit.testing.fuzz.SignedWebhookFuzz.Webhook;
import dev.voiceplane.telephony.carrier.TwilioSignature;
import dev.voiceplane.telephony.carrier.FormBody;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.validation.Validator;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The carriers' webhooks under the kit's signed-webhook fuzz suite: correctly signed (Twilio's HMAC over URL and
 * parameters, Vonage's JWT over the body's hash), with one field replaced by something malformed. Never a 5xx
 * (which a carrier retries for hours); a malformed id or status is acknowledged (2xx); and call-service is never
 * handed anything its contract refuses.
 */
@QuarkusTest
class CarrierWebhookFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @InjectWireMock
    WireMockServer wm;

    @Inject
    Validator validator;

    @Test
    void noSignedWebhookAnswers5xxAndWhatCanNeverBeAppliedIsAcknowledged() throws Exception {
        Numbers.Imported twilio = Numbers.importTwilio(wm, orgA());
        // VonageTest knows how to import a Vonage number behind a fake Vonage API and sign as Vonage signs.
        VonageTest vonageHelper = new VonageTest();
        vonageHelper.wm = wm;
        VonageTest.Account account = vonageHelper.account(true);
        String vonageNumber = "+4477003" + (100000 + (int) (Math.random() * 800000));
        vonageHelper.importNumber(account, vonageNumber);

        List<StubMapping> stubs = List.of(
                wm.stubFor(post(urlEqualTo("/internal/call/events")).atPriority(10)
                        .willReturn(okJson("{\"recorded\":true}"))),
                wm.stubFor(post(urlEqualTo("/internal/call/inbound")).atPriority(10)
                        .willReturn(okJson("{\"callId\":\"" + newId() + "\",\"answer\":\"connect\"}"))));
        int eventsBefore = wm.findAll(postRequestedFor(urlEqualTo("/internal/call/events"))).size();
        int opensBefore = wm.findAll(postRequestedFor(urlEqualTo("/internal/call/inbound"))).size();
        try {
            Map<String, String> status = new LinkedHashMap<>();
            status.put("AccountSid", twilio.accountSid());
            status.put("CallSid", "CA" + newId().replace("-", ""));
            status.put("CallStatus", "completed");
            status.put("Direction", "inbound");
            status.put("From", "+14155550123");
            status.put("To", twilio.number());
            status.put("SequenceNumber", "3");
            status.put("AnsweredBy", "human");
            status.put("callId", newId());
            Map<String, String> inbound = new LinkedHashMap<>(status);
            inbound.put("CallStatus", "ringing");
            inbound.remove("callId");
            Map<String, String> amd = new LinkedHashMap<>();
            amd.put("AccountSid", twilio.accountSid());
            amd.put("CallSid", "CA" + newId().replace("-", ""));
            amd.put("AnsweredBy", "machine_end_beep");
            amd.put("callId", newId());
            Map<String, String> event = new LinkedHashMap<>();
            event.put("from", "447700900002");
            event.put("to", vonageNumber.substring(1));
            event.put("uuid", "uuid-" + newId());
            event.put("status", "completed");
            event.put("direction", "inbound");
            event.put("timestamp", "2024-09-10T12:00:00.000Z");
            event.put("duration", "12");
            Map<String, String> answer = new LinkedHashMap<>();
            answer.put("to", vonageNumber.substring(1));
            answer.put("from", "447700900001");
            answer.put("uuid", "uuid-" + newId());

            SignedWebhookFuzz.of("telephony-service")
                    .webhook(new Webhook("twilio status", status,
                            Set.of("CallSid", "CallStatus", "AnsweredBy", "SequenceNumber", "callId"),
                            fields -> twilio(twilio, "/twilio/status", fields)))
                    // An inbound call without CallSid, or not ringing, stays a 400 (Twilio does not retry a voice URL).
                    .webhook(new Webhook("twilio inbound call", inbound, Set.of("From"),
                            fields -> twilio(twilio, "/twilio/inbound_call", fields)))
                    .webhook(new Webhook("twilio answering machine", amd, Set.of("CallSid", "AnsweredBy", "callId"),
                            fields -> twilioAmd(twilio, fields)))
                    .webhook(new Webhook("vonage event", event,
                            Set.of("uuid", "status", "timestamp", "duration"),
                            fields -> vonage(vonageHelper, account, "/vonage/event", fields)))
                    .webhook(new Webhook("vonage answer", answer, Set.of("uuid", "from"),
                            fields -> vonage(vonageHelper, account, "/vonage/answer", fields)))
                    .cases(300)
                    .run();
        } finally {
            stubs.forEach(wm::removeStub);
        }

        List<String> refusedByContract = new ArrayList<>();
        List<LoggedRequest> events = wm.findAll(postRequestedFor(urlEqualTo("/internal/call/events")));
        for (LoggedRequest handed : events.subList(eventsBefore, events.size())) {
            check(handed, CarrierEvent.class, refusedByContract);
        }
        List<LoggedRequest> opens = wm.findAll(postRequestedFor(urlEqualTo("/internal/call/inbound")));
        for (LoggedRequest handed : opens.subList(opensBefore, opens.size())) {
            check(handed, InboundCallRequest.class, refusedByContract);
        }
        assertEquals(List.of(), refusedByContract, "call-service was handed what its contract refuses");
    }

    /** What call-service would refuse: its contract's constraints, and text with control characters or lone surrogates. */
    private <T> void check(LoggedRequest handed, Class<T> type, List<String> refused) throws Exception {
        String body = handed.getBodyAsString();
        T contract = JSON.readValue(body, type);
        var violations = validator.validate(contract);
        List<String> unreadable = new ArrayList<>();
        JSON.readTree(body).forEach(value -> {
            if (value.isTextual() && !readable(value.asText())) {
                unreadable.add(value.asText());
            }
        });
        if (!violations.isEmpty() || !unreadable.isEmpty()) {
            refused.add(type.getSimpleName() + " " + (body.length() > 200 ? body.substring(0, 200) + "…" : body)
                    + " " + violations);
        }
    }

    private static boolean readable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || Character.isLowSurrogate(c)) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            }
        }
        return true;
    }

    /** A form body as Twilio sends one; its parameters as the service will read them are what Twilio signs. */
    private static byte[] form(Map<String, List<String>> params) {
        StringBuilder form = new StringBuilder();
        params.forEach((name, values) -> values.forEach(value -> form.append(form.isEmpty() ? "" : "&")
                .append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8))));
        return form.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A JSON object of text fields as a sender's JSON writer makes one: control characters escaped; a lone surrogate
     * (no UTF-8 text holds one) and NUL (the kit refuses {@code \\u0000} in every JSON body, a 400 before any route
     * reads it) become U+FFFD.
     */
    private static byte[] json(Map<String, String> fields) {
        StringBuilder json = new StringBuilder("{");
        fields.forEach((name, value) -> json.append(json.length() == 1 ? "" : ",").append(quoted(name)).append(':')
                .append(quoted(value)));
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String quoted(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (paired) {
                quoted.append(c).append(text.charAt(++i));
                continue;
            }
            if (c == 0 || Character.isSurrogate(c)) {
                c = '\ufffd';
            }
            if (c == '"' || c == '\\' || c < 0x20 || c == 0x7f) {
                quoted.append(String.format("\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }

    private static SignedRequest twilio(Numbers.Imported number, String route, Map<String, String> fields) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        String query = null;
        for (Map.Entry<String, String> field : fields.entrySet()) {
            if (field.getKey().equals("callId")) {
                query = "callId=" + URLEncoder.encode(field.getValue(), StandardCharsets.UTF_8);
            } else {
                params.put(field.getKey(), List.of(field.getValue()));
            }
        }
        return signedForm(number, route + (query == null ? "" : "?" + query), params);
    }

    private static SignedRequest twilioAmd(Numbers.Imported number, Map<String, String> fields) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        String query = "phoneNumberId=" + number.id();
        for (Map.Entry<String, String> field : fields.entrySet()) {
            if (field.getKey().equals("callId")) {
                query += "&callId=" + URLEncoder.encode(field.getValue(), StandardCharsets.UTF_8);
            } else {
                params.put(field.getKey(), List.of(field.getValue()));
            }
        }
        return signedForm(number, "/twilio/amd?" + query, params);
    }

    private static SignedRequest signedForm(Numbers.Imported number, String pathAndQuery,
            Map<String, List<String>> params) {
        byte[] body = form(params);
        String signature = TwilioSignature.compute(number.authToken(), Stubs.PUBLIC + pathAndQuery,
                FormBody.parse(body));
        return new SignedRequest(pathAndQuery, Map.of("Content-Type", "application/x-www-form-urlencoded",
                "X-Twilio-Signature", signature), body);
    }

    private static SignedRequest vonage(VonageTest helper, VonageTest.Account account, String route,
            Map<String, String> fields) {
        byte[] body = json(fields);
        try {
            return new SignedRequest(route, Map.of("Content-Type", "application/json",
                    "Authorization", helper.signed(account, body, new Date())), body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
