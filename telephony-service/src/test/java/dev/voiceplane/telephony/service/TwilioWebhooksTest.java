package dev.voiceplane.telephony.service;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.twilio.security.RequestValidator;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import dev.voiceplane.telephony.carrier.TwilioSignature;
import dev.voiceplane.telephony.rest.Numbers;
import dev.voiceplane.telephony.rest.Stubs;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.faulttolerance.api.CircuitBreakerMaintenance;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Twilio's webhooks as Twilio sends them (form bodies signed for the public URL), against call-service on WireMock.
 * The handlers are called directly until the kit's route-verifier mechanism opens the routes without an API key.
 */
@QuarkusTest
class TwilioWebhooksTest {

    static final String INBOUND_URL = Stubs.PUBLIC + "/twilio/inbound_call";
    static final String STATUS_URL = Stubs.PUBLIC + "/twilio/status";

    @InjectWireMock
    WireMockServer wm;

    @Inject
    TwilioWebhooks webhooks;

    @Inject
    CircuitBreakerMaintenance breakers;

    @BeforeEach
    void closeCircuits() {
        Stubs.resetCircuits(breakers);
    }

    public static Map<String, List<String>> inboundCall(Numbers.Imported number, String callSid) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        params.put("AccountSid", List.of(number.accountSid()));
        params.put("ApiVersion", List.of("2010-04-01"));
        params.put("CallSid", List.of(callSid));
        params.put("CallStatus", List.of("ringing"));
        params.put("Direction", List.of("inbound"));
        params.put("From", List.of("+14155550123"));
        params.put("To", List.of(number.number()));
        params.put("CallerName", List.of("Eve <script>&"));
        return params;
    }

    public static byte[] form(Map<String, List<String>> params) {
        return params.entrySet().stream()
                .flatMap(entry -> entry.getValue().stream().map(value -> encode(entry.getKey()) + "=" + encode(value)))
                .collect(Collectors.joining("&")).getBytes(StandardCharsets.UTF_8);
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    public static String newCallSid() {
        return "CA" + UUID.randomUUID().toString().replace("-", "");
    }

    /** A number of org A and a new call ringing it: the set-up most tests share. */
    record Ringing(Numbers.Imported number, String callSid, Map<String, List<String>> params) {
    }

    Ringing ringing() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callSid = newCallSid();
        return new Ringing(number, callSid, inboundCall(number, callSid));
    }

    /** The voice URL webhook with these parameters, signed as Twilio signs it. */
    CarrierAnswer signedInbound(Numbers.Imported number, Map<String, List<String>> params) {
        return webhooks.inboundCall(null, form(params), TwilioSignature.compute(number.authToken(), INBOUND_URL, params));
    }

    /** The status callback with these parameters, signed as Twilio signs it. */
    CarrierAnswer signedStatus(Numbers.Imported number, Map<String, List<String>> params) {
        return webhooks.status(null, form(params), TwilioSignature.compute(number.authToken(), STATUS_URL, params));
    }

    /** call-service records the events of this carrier call. */
    void callServiceRecords(String callSid) {
        wm.stubFor(post(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", equalTo(callSid)))
                .willReturn(okJson("{\"recorded\":true}")));
    }

    void callServiceAnswers(String callSid, String answer) {
        wm.stubFor(post(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", equalTo(callSid)))
                .willReturn(okJson(answer)));
    }

    List<LoggedRequest> opened(String callSid) {
        return wm.findAll(postRequestedFor(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", equalTo(callSid))));
    }

    @Test
    void aSignedInboundCallOpensTheCallAndConnectsTheMediaToTheRuntime() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA(), "\"name\":\"Desk\"");
        String callSid = newCallSid();
        callServiceAnswers(callSid, "{\"callId\":\"call-" + callSid + "\",\"answer\":\"connect\"}");

        CarrierAnswer answer = signedInbound(number, inboundCall(number, callSid));

        assertEquals(200, answer.status());
        assertEquals("text/xml; charset=utf-8", answer.contentType());
        assertEquals("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Connect><Stream url=\"wss://runtime.example.com/stream\">"
                + "<Parameter name=\"callId\" value=\"call-" + callSid + "\"/><Parameter name=\"orgId\" value=\"" + TestKeys.ORG_A
                + "\"/></Stream></Connect></Response>", answer.body());
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/inbound"))
                .withHeader("Authorization", equalTo(TestKeys.bearer(TestKeys.INTERNAL_TOKEN)))
                .withHeader("X-Voice-Org-Id", equalTo(TestKeys.ORG_A))
                .withRequestBody(matchingJsonPath("$.phoneCallProvider", equalTo("twilio")))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", equalTo(callSid)))
                .withRequestBody(matchingJsonPath("$.phoneCallTransport", equalTo("pstn")))
                .withRequestBody(matchingJsonPath("$.customer.number", equalTo("+14155550123")))
                .withRequestBody(matchingJsonPath("$.phoneNumber.id", equalTo(number.id())))
                .withRequestBody(matchingJsonPath("$.phoneNumber.name", equalTo("Desk")))
                .withRequestBody(matchingJsonPath("$.phoneNumber.number", equalTo(number.number()))));
        assertTrue(!opened(callSid).getFirst().getBodyAsString().contains(number.authToken()),
                "the auth token never leaves this service");
    }

    @Test
    void aMissingOrWrongSignatureIsA403AndNothingIsOpened() {
        Ringing call = ringing();
        Numbers.Imported number = call.number();
        String callSid = call.callSid();
        callServiceAnswers(callSid, "{\"callId\":\"c\",\"answer\":\"connect\"}");
        Map<String, List<String>> params = call.params();
        String signature = TwilioSignature.compute(number.authToken(), INBOUND_URL, params);

        assertEquals(403, webhooks.inboundCall(null, form(params), null).status());
        assertEquals(403, webhooks.inboundCall(null, form(params), "").status());
        assertEquals(403, webhooks.inboundCall(null, form(params),
                TwilioSignature.compute("another-token", INBOUND_URL, params)).status());
        // Signed for another URL, or with a parameter changed after signing.
        assertEquals(403, webhooks.inboundCall("x=1", form(params), signature).status());
        Map<String, List<String>> altered = new LinkedHashMap<>(params);
        altered.put("From", List.of("+14155550999"));
        CarrierAnswer refused = webhooks.inboundCall(null, form(altered), signature);
        assertEquals(403, refused.status());
        assertTrue(refused.body().contains("\"statusCode\":403"), refused.body());
        assertEquals(0, opened(callSid).size());
    }

    @Test
    void anUnknownNumberIsRefusedPolitelyAndNothingIsOpened() {
        Ringing call = ringing();
        call.params().put("To", List.of(Stubs.newNumber()));

        CarrierAnswer answer = signedInbound(call.number(), call.params());

        assertEquals(200, answer.status());
        assertTrue(answer.body().endsWith("<Response><Say>" + InboundCalls.UNKNOWN_NUMBER + "</Say><Hangup/></Response>"));
        assertEquals(0, opened(call.callSid()).size());
    }

    @Test
    void aRefusalByCallServiceIsSpokenEscapedThenHungUp() {
        Ringing call = ringing();
        callServiceAnswers(call.callSid(), "{\"callId\":\"c1\",\"answer\":\"refuse\",\"message\":\"Busy </Say><Dial>+1900</Dial>\"}");

        CarrierAnswer answer = signedInbound(call.number(), call.params());

        assertEquals(200, answer.status());
        assertTrue(answer.body().endsWith("<Response><Say>Busy &lt;/Say&gt;&lt;Dial&gt;+1900&lt;/Dial&gt;</Say><Hangup/></Response>"),
                answer.body());
    }

    @Test
    void callServiceUnavailableIsAPoliteRefusal() {
        Ringing call = ringing();
        wm.stubFor(post(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", equalTo(call.callSid())))
                .willReturn(aResponse().withStatus(503)));

        CarrierAnswer answer = signedInbound(call.number(), call.params());

        assertEquals(200, answer.status());
        assertTrue(answer.body().endsWith("<Response><Say>" + InboundCalls.REFUSAL + "</Say><Hangup/></Response>"));
        assertEquals(3, opened(call.callSid()).size(), "a 5xx is retried twice");
    }

    @Test
    void anOversizedBodyIsA413AndNothingIsOpened() {
        Ringing call = ringing();
        call.params().put("Padding", List.of("x".repeat(70 * 1024)));

        assertEquals(413, signedInbound(call.number(), call.params()).status());
        assertEquals(0, opened(call.callSid()).size());
    }

    @Test
    void aCallThatIsNotRingingInboundIsA400() {
        Ringing call = ringing();
        call.params().put("CallStatus", List.of("in-progress"));
        assertEquals(400, signedInbound(call.number(), call.params()).status());
    }

    @Test
    void statusCallbacksBecomeIdempotentEventsForCallService() {
        Ringing call = ringing();
        String callSid = call.callSid();
        callServiceRecords(callSid);
        Map<String, List<String>> params = call.params();
        params.put("CallStatus", List.of("completed"));
        params.put("CallDuration", List.of("42"));
        params.put("SequenceNumber", List.of("3"));
        params.put("SipResponseCode", List.of("200"));
        params.put("Timestamp", List.of("Tue, 10 Sep 2024 12:00:05 +0000"));
        params.put("CallbackSource", List.of("call-progress-events"));

        assertEquals(200, signedStatus(call.number(), params).status());
        assertEquals(200, signedStatus(call.number(), params).status());

        List<LoggedRequest> events = wm.findAll(postRequestedFor(urlEqualTo("/internal/call/events"))
                .withHeader("X-Voice-Org-Id", equalTo(TestKeys.ORG_A))
                .withRequestBody(matchingJsonPath("$.eventId", equalTo("twilio:" + callSid + ":status:3")))
                .withRequestBody(matchingJsonPath("$.type", equalTo("status")))
                .withRequestBody(matchingJsonPath("$.carrierStatus", equalTo("completed")))
                .withRequestBody(matchingJsonPath("$.durationSeconds", equalTo("42")))
                .withRequestBody(matchingJsonPath("$.sipResponseCode", equalTo("200")))
                .withRequestBody(matchingJsonPath("$.sequenceNumber", equalTo("3")))
                .withRequestBody(matchingJsonPath("$.carrierTimestamp", equalTo("2024-09-10T12:00:05Z")))
                .withRequestBody(matchingJsonPath("$.direction", equalTo("inbound"))));
        assertEquals(2, events.size(), "both deliveries are handed on under the same event id");
    }

    @Test
    void aStatusCallbackForAnOutboundCallResolvesOurNumberAsTheCallerAndCarriesTheCallId() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callSid = newCallSid();
        callServiceRecords(callSid);
        Map<String, List<String>> params = new LinkedHashMap<>();
        params.put("AccountSid", List.of(number.accountSid()));
        params.put("CallSid", List.of(callSid));
        params.put("CallStatus", List.of("ringing"));
        params.put("Direction", List.of("outbound-api"));
        params.put("From", List.of(number.number()));
        params.put("To", List.of("+14155550100"));
        String query = "callId=c%2F7";
        String signature = TwilioSignature.compute(number.authToken(), STATUS_URL + "?" + query, params);

        assertEquals(200, webhooks.status(query, form(params), signature).status());
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.callId", equalTo("c/7")))
                .withRequestBody(matchingJsonPath("$.direction", equalTo("outbound")))
                .withRequestBody(matchingJsonPath("$.eventId", equalTo("twilio:" + callSid + ":status:ringing"))));
        // The callId in the URL is signed: changing it breaks the signature.
        assertEquals(403, webhooks.status("callId=other", form(params), signature).status());
    }

    @Test
    void anEventForACallCallServiceDoesNotKnowIsAcceptedAndOneItCannotTakeIsRetried() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String unknown = newCallSid();
        String failing = newCallSid();
        wm.stubFor(post(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", equalTo(unknown)))
                .willReturn(aResponse().withStatus(404)));
        wm.stubFor(post(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", equalTo(failing)))
                .willReturn(aResponse().withStatus(500)));
        Map<String, List<String>> first = inboundCall(number, unknown);
        first.put("CallStatus", List.of("completed"));
        Map<String, List<String>> second = inboundCall(number, failing);
        second.put("CallStatus", List.of("completed"));

        assertEquals(200, signedStatus(number, first).status());
        assertEquals(503, signedStatus(number, second).status());
    }

    @Test
    void theAnsweringMachineResultIsAnEventOfTheCallNamedInItsUrl() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callSid = newCallSid();
        callServiceRecords(callSid);
        Map<String, List<String>> params = new LinkedHashMap<>();
        params.put("AccountSid", List.of(number.accountSid()));
        params.put("CallSid", List.of(callSid));
        params.put("AnsweredBy", List.of("machine_end_beep"));
        params.put("MachineDetectionDuration", List.of("4200"));
        String query = "phoneNumberId=" + number.id() + "&callId=call-9";
        String signature = TwilioSignature.compute(number.authToken(), Stubs.PUBLIC + "/twilio/amd?" + query, params);

        assertEquals(200, webhooks.machineDetection(query, form(params), signature).status());
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.eventId", equalTo("twilio:" + callSid + ":amd")))
                .withRequestBody(matchingJsonPath("$.type", equalTo("answered-by")))
                .withRequestBody(matchingJsonPath("$.answeredBy", equalTo("machine_end_beep")))
                .withRequestBody(matchingJsonPath("$.callId", equalTo("call-9"))));
        assertEquals(403, webhooks.machineDetection(query, form(params), "forged").status());
    }

    @Test
    void overHttpTheRoutesTakeTheSignatureAndNeverAnApiKey() {
        Ringing call = ringing();
        String callSid = call.callSid();
        callServiceAnswers(callSid, "{\"callId\":\"http-" + callSid + "\",\"answer\":\"connect\"}");
        Map<String, List<String>> params = call.params();
        String signature = TwilioSignature.compute(call.number().authToken(), INBOUND_URL, params);

        io.restassured.RestAssured.given().contentType("application/x-www-form-urlencoded").body(new String(form(params), StandardCharsets.UTF_8))
                .header("X-Twilio-Signature", signature)
                .when().post("/twilio/inbound_call")
                .then().statusCode(200).contentType(org.hamcrest.Matchers.startsWith("text/xml"))
                .body(org.hamcrest.Matchers.containsString("value=\"http-" + callSid + "\""));
        orgA().contentType("application/x-www-form-urlencoded").body(new String(form(params), StandardCharsets.UTF_8))
                .when().post("/twilio/inbound_call")
                .then().statusCode(403).body("statusCode", org.hamcrest.Matchers.equalTo(403));
        io.restassured.RestAssured.given().contentType("application/x-www-form-urlencoded").body(new String(form(params), StandardCharsets.UTF_8))
                .header("X-Twilio-Signature", "forged").when().post("/twilio/status").then().statusCode(403);
        assertEquals(1, opened(callSid).size());
    }

    @Test
    void aStatusCallbackWithAJsonBodyIsCheckedThroughItsBodyHash() throws Exception {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callSid = newCallSid();
        callServiceRecords(callSid);
        byte[] body = ("{\"AccountSid\":\"" + number.accountSid() + "\",\"CallSid\":\"" + callSid
                + "\",\"CallStatus\":\"completed\",\"Direction\":\"inbound\",\"From\":\"+14155550123\",\"To\":\""
                + number.number() + "\",\"SequenceNumber\":4,\"CallDuration\":\"7\"}").getBytes(StandardCharsets.UTF_8);
        String query = "bodySHA256=" + sha256Hex(body);
        String signature = TwilioSignature.compute(number.authToken(), STATUS_URL + "?" + query, Map.of());
        assertTrue(new RequestValidator(number.authToken()).validate(STATUS_URL + "?" + query,
                new String(body, StandardCharsets.UTF_8), signature), "Twilio's validator accepts the request");

        assertEquals(200, webhooks.status(query, body, signature).status());
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.eventId", equalTo("twilio:" + callSid + ":status:4")))
                .withRequestBody(matchingJsonPath("$.carrierStatus", equalTo("completed")))
                .withRequestBody(matchingJsonPath("$.durationSeconds", equalTo("7"))));

        // The body altered after signing, with or without its hash rewritten: refused, nothing handed on.
        byte[] altered = new String(body, StandardCharsets.UTF_8).replace("completed", "busy").getBytes(StandardCharsets.UTF_8);
        assertEquals(403, webhooks.status(query, altered, signature).status());
        assertEquals(403, webhooks.status("bodySHA256=" + sha256Hex(altered), altered, signature).status());
        // Over HTTP, as Twilio posts it.
        io.restassured.RestAssured.given().contentType("application/json").body(body)
                .header("X-Twilio-Signature", signature)
                .when().post("/twilio/status?" + query).then().statusCode(200);
        io.restassured.RestAssured.given().contentType("application/json").body(altered)
                .header("X-Twilio-Signature", signature)
                .when().post("/twilio/status?" + query).then().statusCode(403);
        wm.verify(2, postRequestedFor(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", equalTo(callSid))));
    }

    static String sha256Hex(byte[] body) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    }

    /** How many events call-service has been handed so far. */
    int eventsHandedOn() {
        return wm.findAll(postRequestedFor(urlEqualTo("/internal/call/events"))).size();
    }

    /** Posts a signed status callback ({@code query} may be null) over HTTP, as Twilio does; returns its status. */
    int postSigned(Numbers.Imported number, String route, String query, Map<String, List<String>> params) {
        String url = Stubs.PUBLIC + route + (query == null ? "" : "?" + query);
        return io.restassured.RestAssured.given().urlEncodingEnabled(false)
                .contentType("application/x-www-form-urlencoded")
                .body(new String(form(params), StandardCharsets.UTF_8))
                .header("X-Twilio-Signature", TwilioSignature.compute(number.authToken(), url, params))
                .when().post(route + (query == null ? "" : "?" + query))
                .then().extract().statusCode();
    }

    @Test
    void aSignedStatusCallbackThatCanNeverBeAppliedIsAcknowledgedAndNotHandedOn() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        // As call-service does with what its contract does not allow: a 400 (which today became a 503).
        var refusing = wm.stubFor(post(urlEqualTo("/internal/call/events")).atPriority(20)
                .willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":[\"refused\"],\"error\":\"Bad Request\",\"statusCode\":400}")));
        try {
            int before = eventsHandedOn();
            Map<String, List<String>> longSid = inboundCall(number, "CA" + "x".repeat(4_998));
            longSid.put("CallStatus", List.of("completed"));
            Map<String, List<String>> longerSid = inboundCall(number, "CA" + "x".repeat(59_998));
            longerSid.put("CallStatus", List.of("completed"));
            Map<String, List<String>> oddStatus = inboundCall(number, newCallSid());
            oddStatus.put("CallStatus", List.of("completed-" + "x".repeat(300)));
            Map<String, List<String>> controlStatus = inboundCall(number, newCallSid());
            controlStatus.put("CallStatus", List.of("ringing\u0000"));
            Map<String, List<String>> noStatus = inboundCall(number, newCallSid());
            noStatus.remove("CallStatus");
            Map<String, List<String>> nulCallId = inboundCall(number, newCallSid());
            nulCallId.put("CallStatus", List.of("completed"));

            assertEquals(200, postSigned(number, "/twilio/status", null, longSid), "a 5,000-character CallSid");
            assertEquals(200, postSigned(number, "/twilio/status", null, longerSid), "a 60,000-character CallSid");
            assertEquals(200, postSigned(number, "/twilio/status", null, oddStatus), "a 310-character CallStatus");
            assertEquals(200, postSigned(number, "/twilio/status", null, controlStatus), "a NUL in CallStatus");
            assertEquals(200, postSigned(number, "/twilio/status", null, noStatus), "no CallStatus");
            assertEquals(200, postSigned(number, "/twilio/status", "callId=%00", nulCallId), "callId=%00");

            Map<String, List<String>> oddMachine = new LinkedHashMap<>();
            oddMachine.put("AccountSid", List.of(number.accountSid()));
            oddMachine.put("CallSid", List.of(newCallSid()));
            oddMachine.put("AnsweredBy", List.of("machine_" + "x".repeat(100)));
            assertEquals(200, postSigned(number, "/twilio/amd", "phoneNumberId=" + number.id() + "&callId=c-1",
                    oddMachine), "a 108-character AnsweredBy");
            assertEquals(before, eventsHandedOn(), "call-service was asked about events it could never record");
        } finally {
            wm.removeStub(refusing);
        }
    }

    @Test
    void aStatusCallbackCallServiceRefusesIsAcknowledgedNotRetried() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callSid = newCallSid();
        wm.stubFor(post(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", equalTo(callSid)))
                .willReturn(aResponse().withStatus(422)));
        Map<String, List<String>> params = inboundCall(number, callSid);
        params.put("CallStatus", List.of("completed"));

        // A 4xx is call-service's answer, not an outage: asking again gets the same; Twilio must stop.
        assertEquals(200, postSigned(number, "/twilio/status", null, params));
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", equalTo(callSid))));
    }

    @Test
    void aSignedInboundCallThatCanNeverBeOpenedIsRefusedPolitelyWithoutAskingCallService() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        int opensBefore = wm.findAll(postRequestedFor(urlEqualTo("/internal/call/inbound"))).size();
        Map<String, List<String>> longSid = inboundCall(number, "CA" + "x".repeat(4_998));
        Map<String, List<String>> nulSid = inboundCall(number, "CA\u0000" + newCallSid());
        Map<String, List<String>> longCaller = inboundCall(number, newCallSid());
        longCaller.put("From", List.of("+1" + "5".repeat(300)));

        for (Map<String, List<String>> params : List.of(longSid, nulSid, longCaller)) {
            CarrierAnswer answer = signedInbound(number, params);
            assertEquals(200, answer.status());
            assertTrue(answer.body().contains("<Say>" + InboundCalls.REFUSAL + "</Say><Hangup/>"), answer.body());
        }
        assertEquals(opensBefore, wm.findAll(postRequestedFor(urlEqualTo("/internal/call/inbound"))).size(),
                "call-service was asked to open calls it could never open");
    }
}
