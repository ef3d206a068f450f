package dev.voiceplane.local;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeElevenLabs;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.restassured.RestAssured;
import io.restassured.config.EncoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole system as a platform team would try it before a launch: the local stack with every service, reached
 * through the gateway only, with the outside world played by one WireMock server (the carrier's REST API, the
 * organisation's LLM, the customer's server that receives server messages) and by this test (the carrier's
 * signed webhooks, and the voice runtime, which talks to call-service's internal routes as it would in a cluster).
 * One call is held for real: the voice runtime runs in the stack, a fake Twilio caller speaks espeak-ng speech to it
 * through the gateway, and the speech providers are the runtime's local fakes speaking their real protocols (the
 * streaming chat requests reach the fake OpenAI through the WireMock server, which answers the analysis itself).
 * The last test kills call-service mid-call (while the receiver is down too) and restarts it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SystemIT {

    private static final String ORG = HeldCalls.ORG;
    private static final String KEY = HeldCalls.KEY;
    private static final String OTHER_KEY = HeldCalls.OTHER_KEY;
    private static final String LLM_KEY = HeldCalls.LLM_KEY;
    private static final String SUMMARY = HeldCalls.SUMMARY;
    private static final Duration EVENTUALLY = Duration.ofSeconds(60);
    private static final Pattern CALL_ID = Pattern.compile("name=\"callId\" value=\"([0-9a-f-]{36})\"");
    private static final Pattern STREAM_URL = Pattern.compile("<Stream url=\"([^\"]+)\"");
    private static final Pattern STREAM_PARAMETER = Pattern.compile("<Parameter name=\"([^\"]+)\" value=\"([^\"]*)\"");
    private static final String DEEPGRAM_KEY = HeldCalls.DEEPGRAM_KEY;
    private static final String ELEVENLABS_KEY = HeldCalls.ELEVENLABS_KEY;
    /** A held conversation's steps, each in real time (the caller speaks and listens at 20 ms a frame). */
    private static final Duration CONVERSATION_STEP = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dataDirectory;

    private static WireMockServer outside;
    private static StackUnderTest stack;
    private static String publicUrl;
    private static FakeDeepgram deepgram;
    private static FakeOpenAi openai;
    private static FakeElevenLabs elevenlabs;

    private static HeldCalls held;

    @BeforeAll
    static void start() throws Exception {
        // The outside world as the held-calls tests have it (HeldCalls: the carrier, the receivers and the analysis
        // model on one WireMock server, the runtime's provider fakes); a stack of this class's own, since its last
        // tests kill and stop services. A dead replica's delivery claims come back within seconds.
        held = HeldCalls.start(dataDirectory, Map.of("VOICE_WEBHOOK_LEASE", "5s"));
        outside = held.outside();
        stack = held.stack();
        publicUrl = held.publicUrl();
        deepgram = held.deepgram();
        openai = held.openai();
        elevenlabs = held.elevenlabs();
        RestAssured.baseURI = "http://localhost";
        RestAssured.port = stack.gatewayPort;
        RestAssured.config = RestAssuredConfig.config()
                .encoderConfig(EncoderConfig.encoderConfig().appendDefaultContentCharsetToContentTypeIfUndefined(false));
    }

    @AfterAll
    static void stop() throws Exception {
        if (held != null) {
            held.close();
        }
    }

    // ---- the contract

    @Test
    @Order(0)
    void everyDocumentedRouteIsServedAndEveryRoutedPrefixIsDocumented() throws Exception {
        List<OpenApiMerge.Operation> operations = OpenApiMerge.operations(
                java.nio.file.Files.readString(RepositoryFiles.home().resolve(OpenApiMerge.PUBLISHED)));
        List<String> unanswered = new java.util.ArrayList<>();
        for (OpenApiMerge.Operation operation : operations) {
            // Any id: the route must exist even when the object does not.
            RequestSpecification request = as(KEY);
            if (!operation.method().equals("GET") && !operation.method().equals("DELETE")) {
                request = request.body("{}");
            }
            Response answer = request.when().request(operation.method(), operation.example());
            String type = answer.getContentType();
            String message = type != null && type.contains("json") ? answer.jsonPath().getString("message") : "";
            boolean noRoute = answer.statusCode() == 405
                    || (answer.statusCode() == 404 && message != null && message.startsWith("Cannot "));
            if (noRoute || answer.statusCode() >= 500) {
                unanswered.add(operation.method() + " " + operation.example() + " -> " + answer.statusCode() + " "
                        + answer.asString());
            }
        }
        assertEquals(List.of(), unanswered, "documented routes the running stack does not serve");

        IngressRoutes routes = IngressRoutes.read(RepositoryFiles.ingress());
        for (IngressRoutes.Route route : routes.routes()) {
            if (route.service().equals(LocalStack.CONSOLE)) {
                continue; // pages, not the API (ConsoleIT)
            }
            assertTrue(operations.stream().map(OpenApiMerge.Operation::path).anyMatch(route::matches),
                    "the gateway routes " + route.prefix() + " but nothing under it is documented");
        }
        // The media stream is served, by the runtime: a request that is not a WebSocket upgrade is told so.
        as(KEY).when().get("/media/stream")
                .then().statusCode(426)
                .body("statusCode", equalTo(426))
                .body("message", containsString("WebSocket"));
        // A path under a routed prefix that no service serves is the service's 404, not an undocumented answer.
        as(KEY).when().get("/call/" + UUID.randomUUID() + "/not-a-route")
                .then().statusCode(404)
                .body("message", org.hamcrest.Matchers.startsWith("Cannot GET "));
    }

    // ---- the scenarios

    @Test
    @Order(1)
    void anInboundCallRunsFromTheCarriersWebhookToItsReport() throws Exception {
        Setup setup = setUp("inbound");

        // A webhook that is not the carrier's creates nothing.
        String forgedSid = callSid();
        Map<String, String> forged = inboundCall(setup.number(), forgedSid);
        forged.put("AccountSid", setup.accountSid());
        given().contentType(ContentType.URLENC).header("X-Twilio-Signature",
                        signature("not-the-auth-token", publicUrl + "/twilio/inbound_call", forged))
                .body(form(forged)).when().post("/twilio/inbound_call")
                .then().statusCode(403)
                .contentType(ContentType.JSON)
                .body("statusCode", equalTo(403))
                .body("error", equalTo("Forbidden"));

        String sid = callSid();
        String callId = answerInboundCall(setup, sid);
        as(KEY).when().get("/call?phoneNumberId=" + setup.numberId())
                .then().statusCode(200)
                .body("id", equalTo(List.of(callId)))
                .body("phoneCallProviderId", not(hasItem(forgedSid)));

        carrierStatus(setup, sid, null, "in-progress", 1, null, true);
        VoiceRuntime runtime = new VoiceRuntime(callId);
        runtime.readsItsConfiguration(setup);
        runtime.says(1, "bot", "Hello, how can I help?");
        runtime.says(2, "user", "When are you open?");
        carrierStatus(setup, sid, null, "completed", 2, 60, true);
        runtime.ends(3, "customer-ended-call");

        JsonNode call = endedCall(callId);
        assertEquals("inboundPhoneCall", call.path("type").asText());
        assertEquals("customer-ended-call", call.path("endedReason").asText());
        assertEquals(sid, call.path("phoneCallProviderId").asText());
        assertEquals("AI: Hello, how can I help?\nUser: When are you open?\n", call.path("transcript").asText());
        // 60 s on the carrier, 30 s of speech recognition, 1000 + 200 tokens, 500 characters, and two analysis
        // requests (summary, success evaluation) of 100 + 10 tokens at the default rate card.
        JsonNode cost = call.path("costBreakdown");
        assertDecimal("0.01", cost.path("transport"));
        assertDecimal("0.005", cost.path("stt"));
        assertDecimal("0.0045", cost.path("llm"));
        assertDecimal("0.0075", cost.path("tts"));
        assertDecimal("0.05", cost.path("platform"));
        assertDecimal("0.0777", cost.path("total"));
        assertDecimal(cost.path("total").asText(), call.path("cost"));
        assertEquals(SUMMARY, call.path("analysis").path("summary").asText(), call.toString());

        // Another organisation sees none of it.
        as(OTHER_KEY).when().get("/call/" + callId).then().statusCode(404);
        as(OTHER_KEY).when().get("/call").then().statusCode(200).body("id", not(hasItem(callId)));
        receiverGotTheCall(setup, callId, List.of("queued", "in-progress", "ended"));
    }

    @Test
    @Order(2)
    void anOutboundCallIsPlacedThroughTheCarrierAndEndsWithItsReport() throws Exception {
        Setup setup = setUp("outbound");
        String sid = callSid();
        outside.stubFor(post(urlEqualTo(accountPath(setup.accountSid()) + "/Calls.json"))
                .withBasicAuth(setup.accountSid(), setup.authToken())
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"sid\":\"" + sid + "\",\"status\":\"queued\",\"direction\":\"outbound-api\"}")));

        String callId = as(KEY).body("{\"assistantId\":\"" + setup.assistantId() + "\",\"phoneNumberId\":\""
                        + setup.numberId() + "\",\"customer\":{\"number\":\"+14155550199\"}}")
                .when().post("/call/phone")
                .then().statusCode(201)
                .body("type", equalTo("outboundPhoneCall"))
                .body("phoneCallProviderId", equalTo(sid))
                .extract().path("id");
        String placed = outside.findAll(com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(
                urlEqualTo(accountPath(setup.accountSid()) + "/Calls.json"))).getFirst().getBodyAsString();
        assertTrue(placed.contains("To=%2B14155550199"), placed);
        assertTrue(placed.contains(URLEncoder.encode(callId, StandardCharsets.UTF_8)), placed);

        carrierStatus(setup, sid, callId, "ringing", 1, null, true);
        carrierStatus(setup, sid, callId, "in-progress", 2, null, true);
        VoiceRuntime runtime = new VoiceRuntime(callId);
        runtime.readsItsConfiguration(setup);
        runtime.says(1, "bot", "Hello, this is the front desk.");
        runtime.says(2, "user", "Thanks for calling back.");
        carrierStatus(setup, sid, callId, "completed", 3, 60, true);
        runtime.ends(3, "customer-ended-call");

        JsonNode call = endedCall(callId);
        assertEquals("outboundPhoneCall", call.path("type").asText());
        assertEquals("customer-ended-call", call.path("endedReason").asText());
        assertEquals(sid, call.path("phoneCallProviderId").asText());
        assertDecimal("0.0777", call.path("costBreakdown").path("total"));
        assertEquals(SUMMARY, call.path("analysis").path("summary").asText(), call.toString());
        receiverGotTheCall(setup, callId, List.of("queued", "ringing", "in-progress", "ended"));
    }

    @Test
    @Order(3)
    void aPhoneCallIsHeldThroughTheGatewayUntilTheAssistantSaysGoodbye() throws Exception {
        String greeting = "Harbour Cafe, how can I help?";
        String question = "What time do you open tomorrow?";
        String answer = "We open at nine tomorrow. Goodbye!";
        for (String[] credential : new String[][] {{"deepgram", DEEPGRAM_KEY}, {"11labs", ELEVENLABS_KEY}}) {
            as(KEY).body("{\"provider\":\"" + credential[0] + "\",\"apiKey\":\"" + credential[1] + "\"}")
                    .when().put("/credential/" + UUID.randomUUID())
                    .then().statusCode(200);
        }
        Setup setup = setUp("held", fileId -> "{\"name\":\"held\",\"firstMessage\":\"" + greeting + "\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You answer the phone for a cafe.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\"},"
                + "\"endCallPhrases\":[\"goodbye\"],\"responseDelaySeconds\":0,"
                + "\"serverUrl\":\"" + receiver("held") + "\","
                + "\"serverMessages\":[\"status-update\",\"end-of-call-report\"]}");
        deepgram.script(question);
        openai.script(request -> new FakeOpenAi.Text(answer));
        String sid = callSid();
        // The carrier hangs up when asked to (call-contracts.md §4: Status=completed on the call).
        String hangUpPath = accountPath(setup.accountSid()) + "/Calls/" + sid + ".json";
        outside.stubFor(post(urlEqualTo(hangUpPath)).withBasicAuth(setup.accountSid(), setup.authToken())
                .willReturn(okJson("{\"sid\":\"" + sid + "\",\"status\":\"completed\"}")));

        Map<String, String> twiml = inboundStream(setup, sid);
        String callId = twiml.get("callId");
        assertEquals(ORG, twiml.get("orgId"));
        carrierStatus(setup, sid, null, "in-progress", 1, null, true);

        // The carrier opens the media stream where the TwiML says, with the TwiML's Parameters.
        try (FakeTwilioCaller caller = FakeTwilioCaller.connect(twiml.get("url"),
                Map.of("callId", callId, "orgId", twiml.get("orgId"), "token", twiml.get("token")))) {
            eventually("the greeting to be heard and played out", CONVERSATION_STEP, () -> caller.firstAudioNanos() > 0
                    && !caller.playing() && !caller.receivedMarks().isEmpty()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());
            FakeCaller.Utterance asked = caller.say(SpeechFixtures.mulaw8k(question));
            assertTrue(asked.voiceToVoiceMs(CONVERSATION_STEP) > 0, "the reply was heard after the question");
            FakeCaller.Closed closed = caller.closed().get(CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call after the end-call phrase: " + closed);
            assertEquals((short) 1000, closed.code(), "the close code passed through the gateway: " + closed);
        }
        eventually("the carrier was asked to hang up call " + sid, CONVERSATION_STEP, () -> outside.findAll(
                com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(urlEqualTo(hangUpPath))).stream()
                .anyMatch(request -> request.getBodyAsString().contains("Status=completed")));
        carrierStatus(setup, sid, null, "completed", 2, 12, true);

        JsonNode call = endedCall(callId);
        assertEquals("assistant-said-end-call-phrase", call.path("endedReason").asText(), call.toString());
        assertEquals("AI: " + greeting + "\nUser: " + question + "\nAI: " + answer + "\n",
                call.path("transcript").asText(), call.toString());
        List<String> messages = new java.util.ArrayList<>();
        call.path("messages").forEach(message -> messages.add(message.path("role").asText() + ": "
                + message.path("message").asText()));
        assertEquals(List.of("bot: " + greeting, "user: " + question, "bot: " + answer),
                messages.stream().filter(message -> !message.startsWith("system: ")).toList(), call.toString());
        // The runtime's usage priced: the question's seconds of recognition, the model's tokens, the spoken characters.
        JsonNode cost = call.path("costBreakdown");
        for (String part : List.of("stt", "llm", "tts", "transport")) {
            assertTrue(cost.path(part).decimalValue().signum() > 0, part + " is priced: " + cost);
        }
        assertDecimal(cost.path("total").asText(), call.path("cost"));
        assertEquals(SUMMARY, call.path("analysis").path("summary").asText(), call.toString());
        // The model heard the caller's words; the voice was asked for the carrier's audio.
        assertEquals(question, FakeOpenAi.lastUserMessage(openai.lastRequest()));
        assertEquals("mulaw", deepgram.lastQuery("encoding"));
        assertTrue(elevenlabs.requests().stream().allMatch(spoken -> "ulaw_8000".equals(spoken.outputFormat())),
                elevenlabs.requests().toString());
        receiverGotTheCall(setup, callId, List.of("queued", "in-progress", "ended"));
    }

    @Test
    @Order(4)
    void aKilledServiceIsA503ForItsRoutesOnlyAndLosesNothingItAcknowledged() throws Exception {
        Setup setup = setUp("killed");
        // The customer's server is down as well: its messages wait in call-service's outbox, retried.
        StubMapping receiverDown = outside.stubFor(post(urlEqualTo("/hooks/killed")).atPriority(1)
                .willReturn(aResponse().withStatus(503)));
        String sid = callSid();
        String callId = answerInboundCall(setup, sid);
        carrierStatus(setup, sid, null, "in-progress", 1, null, true);
        VoiceRuntime runtime = new VoiceRuntime(callId);
        runtime.says(1, "bot", "Hello before the crash.");
        eventually("call-service tried to deliver a message to the receiver that is down", () -> outside
                .getAllServeEvents().stream().anyMatch(event -> event.getRequest().getUrl().equals("/hooks/killed")));

        stack.kill("call-service");

        as(KEY).when().get("/call/" + callId)
                .then().statusCode(503)
                .contentType(ContentType.JSON)
                .body("message", equalTo("call-service is not running"))
                .body("error", equalTo("Service Unavailable"))
                .body("statusCode", equalTo(503));
        as(KEY).when().get("/assistant/" + setup.assistantId()).then().statusCode(200);
        as(KEY).when().get("/phone-number/" + setup.numberId()).then().statusCode(200);
        as(KEY).when().get("/credential").then().statusCode(200);
        upload("still-up.txt", "uploads work while call-service is down");
        // The carrier's report cannot be passed on: telephony-service answers 503, so the carrier retries it.
        carrierStatus(setup, sid, null, "completed", 2, 60, false);

        stack.restart("call-service");
        outside.removeStub(receiverDown);

        // The carrier retries until it is acknowledged (the breaker towards call-service may still be open).
        eventually("the carrier's retried report is acknowledged",
                () -> carrierStatusAnswer(setup, sid, null, "completed", 2, 60) == 200);
        runtime.says(2, "user", "Hello after the restart.");
        runtime.ends(3, "customer-ended-call");
        JsonNode call = endedCall(callId);
        assertEquals("customer-ended-call", call.path("endedReason").asText());
        assertEquals("AI: Hello before the crash.\nUser: Hello after the restart.\n", call.path("transcript").asText(),
                "what the runtime reported before the crash was kept");
        assertDecimal("0.01", call.path("costBreakdown").path("transport"));
        receiverGotTheCall(setup, callId, List.of("queued", "in-progress", "ended"));
    }

    /**
     * SIGTERM to the voice runtime while it holds a call (issue 26, operations): its readiness turns DOWN and a new
     * media connection is refused (503 in the error shape, through the gateway), while the held call goes on talking
     * - a question asked after the signal is answered and heard - and ends normally with its report; then the runtime
     * exits by itself, without being killed. Last: the stack has no runtime afterwards.
     */
    @Test
    @Order(6)
    void sigtermLetsTheLiveCallFinishAndRefusesNewMedia() throws Exception {
        String greeting = "Harbour Cafe, how can I help?";
        String question = "What time do you open tomorrow?";
        String answer = "We open at nine tomorrow. Goodbye!";
        for (String[] credential : new String[][] {{"deepgram", DEEPGRAM_KEY}, {"11labs", ELEVENLABS_KEY}}) {
            as(KEY).body("{\"provider\":\"" + credential[0] + "\",\"apiKey\":\"" + credential[1] + "\"}")
                    .when().put("/credential/" + UUID.randomUUID())
                    .then().statusCode(200);
        }
        Setup setup = setUp("drained", fileId -> "{\"name\":\"drained\",\"firstMessage\":\"" + greeting + "\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You answer the phone for a cafe.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\"},"
                + "\"endCallPhrases\":[\"goodbye\"],\"responseDelaySeconds\":0,"
                + "\"serverUrl\":\"" + receiver("drained") + "\","
                + "\"serverMessages\":[\"status-update\",\"end-of-call-report\"]}");
        deepgram.failure(FakeDeepgram.Failure.NONE).script(question);
        openai.script(request -> new FakeOpenAi.Text(answer));
        elevenlabs.failure(FakeElevenLabs.Failure.NONE);
        String sid = callSid();
        String hangUpPath = accountPath(setup.accountSid()) + "/Calls/" + sid + ".json";
        outside.stubFor(post(urlEqualTo(hangUpPath)).withBasicAuth(setup.accountSid(), setup.authToken())
                .willReturn(okJson("{\"sid\":\"" + sid + "\",\"status\":\"completed\"}")));
        Map<String, String> twiml = inboundStream(setup, sid);
        String callId = twiml.get("callId");
        carrierStatus(setup, sid, null, "in-progress", 1, null, true);
        given().port(stack.runtimePort()).when().get("/q/health/ready").then().statusCode(200);

        java.util.concurrent.CompletableFuture<String> exited = stack.expect(
                line -> line.startsWith("[voice-runtime] exited with code "));
        // LiveCalls' drain: after the shutdown delay and the HTTP layer's graceful phase, the runtime waits for its calls.
        java.util.concurrent.CompletableFuture<String> draining = stack.expect(
                line -> line.startsWith("[voice-runtime]") && line.contains("stopping: waiting for 1 live calls"));
        try (FakeTwilioCaller caller = FakeTwilioCaller.connect(twiml.get("url"),
                Map.of("callId", callId, "orgId", twiml.get("orgId"), "token", twiml.get("token")))) {
            eventually("the greeting to be heard and played out", CONVERSATION_STEP, () -> caller.firstAudioNanos() > 0
                    && !caller.playing() && !caller.receivedMarks().isEmpty()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());

            ProcessHandle runtime = stack.terminate("voice-runtime");

            eventually("the runtime's readiness to turn DOWN", CONVERSATION_STEP, () -> {
                try {
                    return given().port(stack.runtimePort()).when().get("/q/health/ready").statusCode() == 503;
                } catch (RuntimeException refused) {
                    return false;
                }
            });
            IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> FakeTwilioCaller.connect(twiml.get("url"), Map.of("callId", callId,
                            "orgId", twiml.get("orgId"), "token", twiml.get("token"))).close(),
                    "a new media stream is refused while the runtime stops");
            io.vertx.core.http.UpgradeRejectedException rejected =
                    (io.vertx.core.http.UpgradeRejectedException) refused.getCause();
            assertEquals(503, rejected.getStatus(), refused.toString());
            JsonNode error = read(rejected.getBody().toString());
            assertEquals(503, error.path("statusCode").asInt(), error.toString());
            assertEquals("Service Unavailable", error.path("error").asText(), error.toString());
            assertTrue(error.path("message").asText().contains("stopping"), error.toString());

            // The question is asked once the runtime is draining: the call talks during the drain itself.
            stack.await(draining, CONVERSATION_STEP.toSeconds(), "the drain waiting for the live call");
            assertTrue(runtime.isAlive(), "the runtime waits for its live call");
            FakeCaller.Utterance asked = caller.say(SpeechFixtures.mulaw8k(question));
            assertTrue(asked.voiceToVoiceMs(CONVERSATION_STEP) > 0, "the reply was heard after SIGTERM");
            FakeCaller.Closed closed = caller.closed().get(CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call after the end-call phrase: " + closed);
            assertEquals((short) 1000, closed.code(), closed.toString());

            runtime.onExit().get(CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        // The JVM's exit after SIGTERM: 143 (128 + 15) when its shutdown completed; a kill would be 137.
        String exit = stack.await(exited, CONVERSATION_STEP.toSeconds(), "the runtime's exit");
        assertTrue(exit.endsWith(" 0") || exit.endsWith(" 143"), "the runtime exited by itself: " + exit);
        assertTrue(stack.output().stream().noneMatch(line -> line.startsWith("[voice-runtime]")
                && line.contains("server-shutdown")), "the live call was not cut short");

        eventually("the carrier was asked to hang up call " + sid, CONVERSATION_STEP, () -> outside.findAll(
                com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(urlEqualTo(hangUpPath))).stream()
                .anyMatch(request -> request.getBodyAsString().contains("Status=completed")));
        carrierStatus(setup, sid, null, "completed", 2, 12, true);
        JsonNode call = endedCall(callId);
        assertEquals("assistant-said-end-call-phrase", call.path("endedReason").asText(), call.toString());
        assertEquals("AI: " + greeting + "\nUser: " + question + "\nAI: " + answer + "\n",
                call.path("transcript").asText(), call.toString());
        receiverGotTheCall(setup, callId, List.of("queued", "in-progress", "ended"));
    }

    /**
     * Secrets are write-only and sealed at rest (issue 24): known, unique secrets are written through every route
     * that takes one, and then no public answer, no server message body the receiver gets, no row of any schema and
     * no log line of any service holds one of them, in clear or as hex. The secrets still work: the receiver gets
     * the customer's own secret in {@code x-vapi-secret}, as it asked, and only there.
     */
    @Test
    @Order(5)
    void noSecretIsAnsweredSentStoredOrLogged() throws Exception {
        String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Map<String, String> secrets = new LinkedHashMap<>();
        for (String name : List.of("llmApiKey", "vonageApiKey", "vonageApiSecret", "vonageSignatureSecret",
                "twilioCredentialToken", "numberAuthToken", "numberServerSecret", "numberServerSecretRotated",
                "assistantServerSecret", "assistantToolSecret", "assistantServerSecretRotated", "squadMemberSecret",
                "squadMemberToolSecret", "squadOverrideSecret", "callAssistantSecret", "callToolSecret",
                "callOverrideSecret", "callSquadSecret", "inlineAuthToken", "inlineServerSecret", "toolServerSecret",
                "toolServerSecretRotated", "assistantObjectSecret", "numberObjectSecret")) {
            secrets.put(name, "zq" + name + tag);
        }
        List<String> answers = new java.util.ArrayList<>();
        java.util.function.Function<Response, String> kept = response -> {
            answers.add(response.asString());
            return response.asString();
        };
        String receiver = receiver("secrets");

        // Credentials: PUT and POST, an LLM key, a vonage account, a twilio account.
        String llm = UUID.randomUUID().toString();
        kept.apply(as(KEY).body("{\"provider\":\"deepgram\",\"apiKey\":\"" + secrets.get("llmApiKey") + "\"}")
                .when().put("/credential/" + llm).then().statusCode(200).extract().response());
        String vonageCredential = JSON.readTree(kept.apply(as(KEY).body("{\"provider\":\"vonage\",\"apiKey\":\""
                        + secrets.get("vonageApiKey") + "\",\"apiSecret\":\"" + secrets.get("vonageApiSecret")
                        + "\",\"signatureSecret\":\"" + secrets.get("vonageSignatureSecret") + "\"}")
                .when().post("/credential").then().statusCode(201).extract().response())).path("id").asText();
        String twilioCredential = JSON.readTree(kept.apply(as(KEY).body("{\"provider\":\"twilio\",\"accountSid\":\"AC"
                        + tag + "\",\"authToken\":\"" + secrets.get("twilioCredentialToken") + "\"}")
                .when().post("/credential").then().statusCode(201).extract().response())).path("id").asText();

        // Phone numbers: twilio (auth token, server secret, then a PATCH rotating it) and vonage (the credential's key).
        String token = secrets.get("numberAuthToken");
        HeldCalls.TwilioNumber imported = held.twilioNumber("secrets", token, "\"serverUrl\":\"" + receiver
                + "\",\"serverUrlSecret\":\"" + secrets.get("numberServerSecret") + "\"",
                answer -> kept.apply(answer.extract().response()));
        String accountSid = imported.accountSid();
        String numberId = imported.id();
        kept.apply(as(KEY).body("{\"serverUrlSecret\":\"" + secrets.get("numberServerSecretRotated") + "\"}")
                .when().patch("/phone-number/" + numberId).then().statusCode(200).extract().response());

        String vonageNumber = "+4477" + ThreadLocalRandom.current().nextLong(10_000_000L, 99_999_999L);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        String pem = "-----BEGIN PRIVATE KEY-----\\n" + Base64.getEncoder().encodeToString(
                generator.generateKeyPair().getPrivate().getEncoded()) + "\\n-----END PRIVATE KEY-----\\n";
        outside.stubFor(get(urlPathEqualTo("/account/numbers"))
                .withQueryParam("pattern", com.github.tomakehurst.wiremock.client.WireMock.equalTo(vonageNumber.substring(1)))
                .willReturn(okJson("{\"count\":1,\"numbers\":[{\"country\":\"GB\",\"msisdn\":\""
                        + vonageNumber.substring(1) + "\"}]}")));
        outside.stubFor(post(urlEqualTo("/v2/applications")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"id\":\"app-" + tag + "\",\"keys\":{\"private_key\":\"" + pem + "\"}}")));
        outside.stubFor(post(urlEqualTo("/number/update"))
                .willReturn(okJson("{\"error-code\":\"200\",\"error-code-label\":\"success\"}")));
        String vonageNumberId = JSON.readTree(kept.apply(as(KEY).body("{\"vonagePhoneNumber\":\"" + vonageNumber
                        + "\",\"credentialId\":\"" + vonageCredential + "\"}")
                .when().post("/phone-number/import/vonage").then().statusCode(201).extract().response())).path("id").asText();

        // Assistants and squads: server and tool secrets, created and patched; a squad with inline members.
        String tool = "{\"type\":\"function\",\"function\":{\"name\":\"lookup\"},\"server\":{\"url\":\""
                + receiver + "\",\"secret\":\"%s\"}}";
        String assistant = "{\"name\":\"%s\",\"serverUrl\":\"" + receiver + "\",\"serverUrlSecret\":\"%s\","
                + "\"serverMessages\":[\"status-update\",\"end-of-call-report\"],"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"tools\":[" + tool + "]}}";
        String assistantId = JSON.readTree(kept.apply(as(KEY).body(assistant.formatted("stored",
                        secrets.get("assistantServerSecret"), secrets.get("assistantToolSecret")))
                .when().post("/assistant").then().statusCode(201).extract().response())).path("id").asText();
        kept.apply(as(KEY).body("{\"serverUrlSecret\":\"" + secrets.get("assistantServerSecretRotated") + "\"}")
                .when().patch("/assistant/" + assistantId).then().statusCode(200).extract().response());
        String squadBody = "{\"members\":[{\"assistant\":" + assistant.formatted("member", secrets.get("squadMemberSecret"),
                secrets.get("squadMemberToolSecret")) + "},{\"assistantId\":\"" + assistantId + "\",\"assistantOverrides\":"
                + "{\"serverUrlSecret\":\"" + secrets.get("squadOverrideSecret") + "\"}}]}";
        String squadId = JSON.readTree(kept.apply(as(KEY).body(squadBody).when().post("/squad").then().statusCode(201)
                .extract().response())).path("id").asText();
        kept.apply(as(KEY).body(squadBody).when().patch("/squad/" + squadId).then().statusCode(200).extract().response());

        // Tools (/tool): a server secret, created and rotated; an assistant that names the tool and writes today's
        // server object; the number's server object through a PATCH that carries its provider (issue 27).
        String storedToolId = JSON.readTree(kept.apply(as(KEY).body(tool.formatted(secrets.get("toolServerSecret")))
                .when().post("/tool").then().statusCode(201).extract().response())).path("id").asText();
        kept.apply(as(KEY).body("{\"server\":{\"url\":\"" + receiver + "\",\"secret\":\""
                        + secrets.get("toolServerSecretRotated") + "\",\"headers\":{\"X-Tool\":\"t\"}}}")
                .when().patch("/tool/" + storedToolId).then().statusCode(200).extract().response());
        String objectAssistantId = JSON.readTree(kept.apply(as(KEY).body("{\"name\":\"object\",\"server\":{\"url\":\""
                        + receiver + "\",\"secret\":\"" + secrets.get("assistantObjectSecret")
                        + "\",\"headers\":{\"X-Tenant\":\"s\"},\"timeoutSeconds\":10},"
                        + "\"serverMessages\":[\"status-update\",\"end-of-call-report\"],\"model\":{\"provider\":\"openai\","
                        + "\"model\":\"gpt-4o\",\"toolIds\":[\"" + storedToolId + "\"]}}")
                .when().post("/assistant").then().statusCode(201).extract().response())).path("id").asText();
        kept.apply(as(KEY).body("{\"provider\":\"twilio\",\"server\":{\"url\":\"" + receiver + "\",\"secret\":\""
                        + secrets.get("numberObjectSecret") + "\",\"timeoutSeconds\":7}}")
                .when().patch("/phone-number/" + numberId).then().statusCode(200).extract().response());

        // Calls: an inline assistant with overrides (idempotent, sent twice), an inline squad, the stored squad, the
        // stored assistant on the twilio number, and an inline twilio number and an inline vonage number.
        String inlineCall = "{\"assistant\":" + assistant.formatted("inline", secrets.get("callAssistantSecret"),
                secrets.get("callToolSecret")) + ",\"assistantOverrides\":{\"serverUrlSecret\":\""
                + secrets.get("callOverrideSecret") + "\"}}";
        String idempotencyKey = "secrets-" + tag;
        List<String> callIds = new java.util.ArrayList<>();
        for (int attempt = 0; attempt < 2; attempt++) {
            callIds.add(JSON.readTree(kept.apply(as(KEY).header("Idempotency-Key", idempotencyKey).body(inlineCall)
                    .when().post("/call/web").then().statusCode(201).extract().response())).path("id").asText());
        }
        assertEquals(callIds.get(0), callIds.get(1), "an idempotent repeat answers the first call");
        callIds.add(JSON.readTree(kept.apply(as(KEY).body("{\"squad\":{\"members\":[{\"assistant\":"
                        + assistant.formatted("call squad", secrets.get("callSquadSecret"), secrets.get("callToolSecret"))
                        + "}]}}").when().post("/call/web").then().statusCode(201).extract().response())).path("id").asText());
        callIds.add(JSON.readTree(kept.apply(as(KEY).body("{\"squadId\":\"" + squadId + "\"}")
                .when().post("/call/web").then().statusCode(201).extract().response())).path("id").asText());
        String objectCallId = JSON.readTree(kept.apply(as(KEY).body("{\"assistantId\":\"" + objectAssistantId + "\"}")
                .when().post("/call/web").then().statusCode(201).extract().response())).path("id").asText();
        callIds.add(objectCallId);
        outside.stubFor(post(urlEqualTo(accountPath(accountSid) + "/Calls.json")).withBasicAuth(accountSid, token)
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"sid\":\"" + callSid() + "\",\"status\":\"queued\"}")));
        callIds.add(JSON.readTree(kept.apply(as(KEY).body("{\"assistantId\":\"" + assistantId + "\",\"phoneNumberId\":\""
                        + numberId + "\",\"customer\":{\"number\":\"+14155550199\"}}")
                .when().post("/call/phone").then().statusCode(201).extract().response())).path("id").asText());
        String inlineSid = "AC" + UUID.randomUUID().toString().replace("-", "");
        outside.stubFor(post(urlEqualTo(accountPath(inlineSid) + "/Calls.json"))
                .withBasicAuth(inlineSid, secrets.get("inlineAuthToken"))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"sid\":\"" + callSid() + "\",\"status\":\"queued\"}")));
        callIds.add(JSON.readTree(kept.apply(as(KEY).body("{\"assistantId\":\"" + assistantId + "\",\"phoneNumber\":{"
                        + "\"twilioPhoneNumber\":\"+1555" + ThreadLocalRandom.current().nextLong(1_000_000L, 9_999_999L)
                        + "\",\"twilioAccountSid\":\"" + inlineSid + "\",\"twilioAuthToken\":\"" + secrets.get("inlineAuthToken")
                        + "\",\"serverUrl\":\"" + receiver + "\",\"serverUrlSecret\":\"" + secrets.get("inlineServerSecret")
                        + "\"},\"customer\":{\"number\":\"+14155550199\"}}")
                .when().post("/call").then().statusCode(201).extract().response())).path("id").asText());
        outside.stubFor(post(urlEqualTo("/v1/calls")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"uuid\":\"uuid-" + tag + "\",\"status\":\"started\"}")));
        callIds.add(JSON.readTree(kept.apply(as(KEY).body("{\"assistantId\":\"" + assistantId + "\",\"phoneNumber\":{"
                        + "\"provider\":\"vonage\",\"number\":\"+4477" + ThreadLocalRandom.current().nextLong(10_000_000L, 99_999_999L)
                        + "\",\"credentialId\":\"" + vonageCredential + "\"},\"customer\":{\"number\":\"+14155550199\"}}")
                .when().post("/call").then().statusCode(201).body("phoneCallProviderId", equalTo("uuid-" + tag))
                .extract().response())).path("id").asText());

        // Every public read: by id and in lists.
        for (String path : List.of("/credential/" + llm, "/credential/" + vonageCredential, "/credential/" + twilioCredential,
                "/credential", "/phone-number/" + numberId, "/phone-number/" + vonageNumberId, "/phone-number",
                "/assistant/" + assistantId, "/assistant", "/squad/" + squadId, "/squad", "/call",
                "/tool/" + storedToolId, "/tool", "/assistant/" + objectAssistantId)) {
            RequestSpecification read = path.indexOf('/', 1) < 0 ? as(KEY).queryParam("limit", 1000) : as(KEY);
            kept.apply(read.when().get(path).then().statusCode(200).extract().response());
        }
        for (String callId : callIds) {
            kept.apply(as(KEY).when().get("/call/" + callId).then().statusCode(200).extract().response());
            kept.apply(as(KEY).when().get("/call/" + callId + "/deliveries").then().statusCode(200).extract().response());
        }

        // The server messages: each call's status-update reaches the receiver, with the secret it asked for.
        for (String callId : callIds) {
            eventually("the receiver got a server message of call " + callId, () -> outside.getAllServeEvents().stream()
                    .anyMatch(event -> event.getRequest().getUrl().equals("/hooks/secrets")
                            && event.getRequest().getBodyAsString().contains(callId)));
        }
        List<com.github.tomakehurst.wiremock.verification.LoggedRequest> messages = outside.getAllServeEvents().stream()
                .map(com.github.tomakehurst.wiremock.stubbing.ServeEvent::getRequest)
                .filter(request -> request.getUrl().startsWith("/hooks/"))
                .toList();
        List<String> sent = new java.util.ArrayList<>();
        for (com.github.tomakehurst.wiremock.verification.LoggedRequest message : messages) {
            sent.add(message.getBodyAsString());
            message.getHeaders().all().stream()
                    .filter(header -> !header.key().equalsIgnoreCase("x-vapi-secret"))
                    .forEach(header -> sent.add(header.key() + ": " + header.values()));
        }
        // The inline assistant's message went out with the call's effective secret (the overrides'), as asked.
        assertTrue(messages.stream().anyMatch(message -> message.getBodyAsString().contains(callIds.get(0))
                        && secrets.get("callOverrideSecret").equals(message.getHeader("x-vapi-secret"))),
                "the receiver got the customer's secret in x-vapi-secret");
        // Today's server object: its secret and its custom headers went out with the call's messages.
        assertTrue(messages.stream().anyMatch(message -> message.getBodyAsString().contains(objectCallId)
                        && secrets.get("assistantObjectSecret").equals(message.getHeader("x-vapi-secret"))
                        && "s".equals(message.getHeader("X-Tenant"))),
                "the server object's secret and headers reached the receiver");

        // Every row of every schema, as text (bytea as hex).
        List<String> rows = new java.util.ArrayList<>();
        try (java.sql.Connection database = java.sql.DriverManager.getConnection(
                "jdbc:postgresql://localhost:" + stack.postgresPort() + "/postgres", "postgres", "");
                java.sql.Statement statement = database.createStatement()) {
            List<String> tables = new java.util.ArrayList<>();
            try (java.sql.ResultSet found = statement.executeQuery("select table_schema || '.' || table_name"
                    + " from information_schema.tables where table_type = 'BASE TABLE'"
                    + " and table_schema not in ('pg_catalog', 'information_schema')")) {
                while (found.next()) {
                    tables.add(found.getString(1));
                }
            }
            assertTrue(tables.containsAll(List.of("credential.credentials", "telephony.phone_numbers",
                    "telephony.inline_dials", "assistant.assistants", "assistant.squads", "assistant.tools", "call.call_documents",
                    "call.call_outbox", "call.call_idempotency_keys", "call.call_delivery_attempts")), tables.toString());
            for (String table : tables) {
                try (java.sql.ResultSet all = statement.executeQuery("select t::text from " + table + " t")) {
                    while (all.next()) {
                        rows.add(table + " " + all.getString(1));
                    }
                }
            }
        }
        assertTrue(rows.stream().anyMatch(row -> row.contains(vonageNumberId)), "the dump holds the rows written");

        Map<String, List<String>> places = new LinkedHashMap<>();
        places.put("a public answer", answers);
        places.put("a server message the receiver got", sent);
        places.put("a database row", rows);
        places.put("a log line", stack.output());
        List<String> found = new java.util.ArrayList<>();
        secrets.forEach((name, secret) -> {
            String hex = java.util.HexFormat.of().formatHex(secret.getBytes(StandardCharsets.UTF_8));
            places.forEach((place, texts) -> texts.stream()
                    .filter(text -> text.contains(secret) || text.toLowerCase(java.util.Locale.ROOT).contains(hex))
                    .findFirst()
                    .ifPresent(text -> found.add(name + " in " + place + ": "
                            + text.substring(0, Math.min(text.length(), 2000)))));
        });
        assertEquals(List.of(), found, "secrets found");
    }

    /**
     * Tools through the gateway (issue 27): an organisation's own, invisible and unnameable to another; a tool an
     * assistant names cannot be deleted (409 naming it); a call freezes the tools its assistant names, so the voice
     * runtime keeps reading the tool as it was when the call started after the tool is edited.
     */
    @Test
    @Order(6)
    void toolsAreAnOrganisationsOwnAndACallKeepsTheToolsItStartedWith() {
        String receiver = receiver("tools");
        String toolId = as(KEY).body("{\"type\":\"function\",\"function\":{\"name\":\"book_v1\",\"parameters\":"
                        + "{\"type\":\"object\",\"properties\":{\"slot\":{\"type\":\"string\"}}}},\"server\":{\"url\":\""
                        + receiver + "\"}}")
                .when().post("/tool").then().statusCode(201).body("type", equalTo("function")).extract().path("id");
        as(KEY).when().get("/tool/" + toolId).then().statusCode(200).body("function.name", equalTo("book_v1"));
        as(KEY).queryParam("limit", 1000).when().get("/tool").then().statusCode(200).body("id", hasItem(toolId));
        as(OTHER_KEY).when().get("/tool/" + toolId).then().statusCode(404);
        as(OTHER_KEY).body("{\"async\":true}").when().patch("/tool/" + toolId).then().statusCode(404);
        as(OTHER_KEY).when().delete("/tool/" + toolId).then().statusCode(404);
        as(OTHER_KEY).queryParam("limit", 1000).when().get("/tool").then().statusCode(200).body("id", not(hasItem(toolId)));
        String model = "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"toolIds\":[\"" + toolId + "\"]}";
        as(OTHER_KEY).body("{" + model + "}").when().post("/assistant").then().statusCode(400)
                .body("message", hasItem("model.toolIds.0 refers to an unknown tool: " + toolId));

        String assistantId = as(KEY).body("{\"name\":\"with tools\"," + model + "}").when().post("/assistant")
                .then().statusCode(201).extract().path("id");
        as(KEY).when().delete("/tool/" + toolId).then().statusCode(409)
                .body("message", org.hamcrest.Matchers.containsString(assistantId));
        String callId = as(KEY).body("{\"assistantId\":\"" + assistantId + "\"}").when().post("/call/web")
                .then().statusCode(201).extract().path("id");
        as(KEY).body("{\"function\":{\"name\":\"book_v2\"}}").when().patch("/tool/" + toolId).then().statusCode(200)
                .body("function.name", equalTo("book_v2"));
        given().baseUri("http://localhost").port(stack.port("call-service"))
                .header("Authorization", "Bearer " + StackUnderTest.INTERNAL_TOKEN).header("X-Voice-Org-Id", ORG)
                .when().get("/internal/call/" + callId + "/runtime").then().statusCode(200)
                .body("assistant.model.tools.function.name", equalTo(List.of("book_v1")));
        // A squad's name, as today's SDKs send it (a phone-number PATCH with its provider: the secrets test).
        as(KEY).body("{\"name\":\"Desk\",\"members\":[{\"assistantId\":\"" + assistantId + "\"}]}").when().post("/squad")
                .then().statusCode(201).body("name", equalTo("Desk"));
    }

    // ---- what a client sets up, through the gateway only

    record Setup(String name, String fileId, String assistantId, String numberId, String number, String accountSid,
            String authToken) {
    }

    private static Setup setUp(String name) {
        return setUp(name, fileId -> "{\"name\":\"" + name + "\",\"firstMessage\":\"Hello\","
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"knowledgeBase\":{\"provider\":\"canonical\","
                + "\"fileIds\":[\"" + fileId + "\"]}},\"serverUrl\":\"" + receiver(name) + "\","
                + "\"serverMessages\":[\"status-update\",\"end-of-call-report\"]}", true);
    }

    /** An organisation's set-up with its own assistant ({@code assistant} given the uploaded file's id). */
    private static Setup setUp(String name, java.util.function.UnaryOperator<String> assistant) {
        return setUp(name, assistant, false);
    }

    private static Setup setUp(String name, java.util.function.UnaryOperator<String> assistant,
            boolean withKnowledgeBase) {
        String fileId = upload(name + "-hours.md", "# Hours\nNine to five, " + name + ".");
        as(KEY).body("{\"provider\":\"openai\",\"apiKey\":\"" + LLM_KEY + "\"}")
                .when().put("/credential/" + UUID.randomUUID())
                .then().statusCode(200);
        var created = as(KEY).body(assistant.apply(fileId))
                .when().post("/assistant")
                .then().statusCode(201);
        if (withKnowledgeBase) {
            created.body("model.knowledgeBase.fileIds", equalTo(List.of(fileId)));
        }
        String assistantId = created.extract().path("id");

        HeldCalls.TwilioNumber imported = held.twilioNumber(name, "\"assistantId\":\"" + assistantId + "\"",
                answer -> answer.body("assistantId", equalTo(assistantId)));
        // The carrier was told where to send this number's calls: the public address of the gateway.
        String update = outside.findAll(com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(
                urlEqualTo(accountPath(imported.accountSid()) + "/IncomingPhoneNumbers/" + imported.numberSid() + ".json")))
                .getFirst().getBodyAsString();
        assertTrue(update.contains("VoiceUrl=" + URLEncoder.encode(publicUrl + "/twilio/inbound_call",
                StandardCharsets.UTF_8)), update);
        return new Setup(name, fileId, assistantId, imported.id(), imported.number(), imported.accountSid(),
                imported.authToken());
    }

    private static String upload(String name, String text) {
        return given().header("Authorization", "Bearer " + KEY)
                .multiPart("file", name, text.getBytes(StandardCharsets.UTF_8))
                .when().post("/file/upload")
                .then().statusCode(201)
                .body("status", equalTo("indexed"))
                .extract().path("id");
    }

    // ---- the carrier

    private static Map<String, String> inboundCall(String number, String sid) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("CallSid", sid);
        params.put("From", "+14155550123");
        params.put("To", number);
        params.put("CallStatus", "ringing");
        params.put("Direction", "inbound");
        params.put("ApiVersion", "2010-04-01");
        return params;
    }

    /** The signed inbound-call webhook; returns the call id the TwiML hands to the voice runtime. */
    private static String answerInboundCall(Setup setup, String sid) {
        return inboundStream(setup, sid).get("callId");
    }

    /**
     * The signed inbound-call webhook; returns the TwiML's media stream: its {@code url} (the local runtime, through
     * the gateway's public address) and its {@code <Parameter>}s ({@code callId}, {@code orgId}, {@code token}).
     */
    private static Map<String, String> inboundStream(Setup setup, String sid) {
        Map<String, String> params = inboundCall(setup.number(), sid);
        params.put("AccountSid", setup.accountSid());
        String twiml = given().contentType(ContentType.URLENC)
                .header("X-Twilio-Signature", signature(setup.authToken(), publicUrl + "/twilio/inbound_call", params))
                .body(form(params)).when().post("/twilio/inbound_call")
                .then().statusCode(200)
                .body(containsString("<Stream url=\"" + publicUrl.replaceFirst("^http", "ws") + "/media/stream\""))
                .extract().asString();
        Matcher callId = CALL_ID.matcher(twiml);
        assertTrue(callId.find(), twiml);
        Map<String, String> stream = new LinkedHashMap<>();
        Matcher url = STREAM_URL.matcher(twiml);
        assertTrue(url.find(), twiml);
        stream.put("url", url.group(1));
        Matcher parameter = STREAM_PARAMETER.matcher(twiml);
        while (parameter.find()) {
            stream.put(parameter.group(1), parameter.group(2));
        }
        assertEquals(callId.group(1), stream.get("callId"), twiml);
        assertTrue(stream.containsKey("orgId") && stream.containsKey("token"), twiml);
        return stream;
    }

    /** A signed status callback; {@code callId} is in the callback address of calls we placed. */
    private static void carrierStatus(Setup setup, String sid, String callId, String status, int sequence,
            Integer duration, boolean acknowledged) {
        int answer = carrierStatusAnswer(setup, sid, callId, status, sequence, duration);
        assertEquals(acknowledged ? 200 : 503, answer, "the carrier's '" + status + "' report");
    }

    private static int carrierStatusAnswer(Setup setup, String sid, String callId, String status, int sequence,
            Integer duration) {
        boolean outbound = callId != null;
        Map<String, String> params = new LinkedHashMap<>();
        params.put("AccountSid", setup.accountSid());
        params.put("CallSid", sid);
        params.put("CallStatus", status);
        params.put("Direction", outbound ? "outbound-api" : "inbound");
        params.put("From", outbound ? setup.number() : "+14155550123");
        params.put("To", outbound ? "+14155550199" : setup.number());
        params.put("SequenceNumber", Integer.toString(sequence));
        if (duration != null) {
            params.put("CallDuration", duration.toString());
        }
        String path = "/twilio/status" + (outbound ? "?callId=" + callId : "");
        return given().contentType(ContentType.URLENC)
                .header("X-Twilio-Signature", signature(setup.authToken(), publicUrl + path, params))
                .body(form(params)).when().post(path)
                .then().extract().statusCode();
    }

    // ---- the voice runtime: call-service's internal routes, with the internal token (docs/calls.md)

    private static final class VoiceRuntime {
        private final String callId;

        VoiceRuntime(String callId) {
            this.callId = callId;
        }

        private RequestSpecification internal() {
            return given().baseUri("http://localhost").port(stack.port("call-service"))
                    .header("Authorization", "Bearer " + StackUnderTest.INTERNAL_TOKEN)
                    .header("X-Voice-Org-Id", ORG)
                    .contentType(ContentType.JSON);
        }

        void readsItsConfiguration(Setup setup) {
            internal().when().get("/internal/call/" + callId + "/runtime")
                    .then().statusCode(200)
                    .body("call.id", equalTo(callId))
                    .body("assistant.name", equalTo(setup.name()))
                    .body("assistant.model.knowledgeBase.fileIds", equalTo(List.of(setup.fileId())))
                    .body("phoneNumber.id", equalTo(setup.numberId()))
                    .body("credentialProviders", hasItem("openai"));
        }

        void says(int sequence, String role, String text) {
            event("{\"sequence\":" + sequence + ",\"type\":\"message\",\"message\":{\"role\":\"" + role
                    + "\",\"message\":\"" + text + "\"}}");
        }

        void ends(int sequence, String reason) {
            event("{\"sequence\":" + sequence + ",\"type\":\"ended\",\"endedReason\":\"" + reason + "\",\"usage\":"
                    + "{\"sttSeconds\":30,\"llmPromptTokens\":1000,\"llmCompletionTokens\":200,\"ttsCharacters\":500}}");
        }

        private void event(String body) {
            internal().body(body).when().post("/internal/call/" + callId + "/runtime/events")
                    .then().statusCode(200).body("recorded", equalTo(true));
        }
    }

    // ---- the customer's server

    private static String receiver(String name) {
        return "http://127.0.0.1:" + outside.port() + "/hooks/" + name;
    }

    /** A server message the receiver acknowledged: its Standard Webhooks headers and body. */
    record Delivered(String id, String timestamp, String signature, String body, JsonNode message) {
    }

    /** Server messages the receiver of {@code setup} acknowledged (2xx) for the call, in arrival order. */
    private static List<Delivered> deliveredFor(Setup setup, String callId) {
        return outside.getAllServeEvents().stream()
                .filter(event -> event.getRequest().getUrl().equals("/hooks/" + setup.name()))
                .filter(event -> event.getResponse().getStatus() / 100 == 2)
                .sorted(java.util.Comparator.comparing(event -> event.getRequest().getLoggedDate()))
                .map(event -> new Delivered(event.getRequest().getHeader("webhook-id"),
                        event.getRequest().getHeader("webhook-timestamp"),
                        event.getRequest().getHeader("webhook-signature"),
                        event.getRequest().getBodyAsString(),
                        read(event.getRequest().getBodyAsString()).path("message")))
                .filter(delivered -> callId.equals(delivered.message().path("call").path("id").asText()))
                .toList();
    }

    /**
     * The receiver got a {@code status-update} for each status, in order, and one {@code end-of-call-report} after
     * them, each signed with the organisation's secret (a message delivered twice keeps its id: counted once).
     */
    private static void receiverGotTheCall(Setup setup, String callId, List<String> statuses) {
        eventually("the receiver got the end-of-call-report of call " + callId, () -> deliveredFor(setup, callId)
                .stream().anyMatch(delivered -> delivered.message().path("type").asText().equals("end-of-call-report")));
        String secret = as(KEY).when().get("/call/webhook-secret").then().statusCode(200).extract().path("secret");
        Map<String, Delivered> once = new LinkedHashMap<>();
        for (Delivered delivered : deliveredFor(setup, callId)) {
            assertTrue(signedWith(secret, delivered), "not signed with the organisation's secret: " + delivered);
            once.putIfAbsent(delivered.id(), delivered);
        }
        List<String> types = once.values().stream().map(delivered -> delivered.message().path("type").asText()).toList();
        List<String> updates = once.values().stream()
                .filter(delivered -> delivered.message().path("type").asText().equals("status-update"))
                .map(delivered -> delivered.message().path("status").asText())
                .toList();
        assertEquals(statuses, updates, "status-updates of call " + callId + " (messages: " + types + ")");
        assertEquals(1, types.stream().filter("end-of-call-report"::equals).count(), types.toString());
        assertEquals("end-of-call-report", types.getLast(), "the report comes after the status-updates: " + types);
        JsonNode report = once.values().stream().map(Delivered::message)
                .filter(message -> message.path("type").asText().equals("end-of-call-report")).findFirst().orElseThrow();
        assertEquals(SUMMARY, report.path("summary").asText(), report.toString());
        assertEquals("ended", report.path("call").path("status").asText(), report.toString());
        assertEquals(setup.numberId(), report.path("phoneNumber").path("id").asText(), report.toString());
        assertTrue(report.path("transcript").asText().startsWith("AI: "), report.toString());
    }

    /** Standard Webhooks: {@code v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>")>} keyed with the decoded secret. */
    private static boolean signedWith(String secret, Delivered delivered) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
            String expected = "v1," + Base64.getEncoder().encodeToString(mac.doFinal(
                    (delivered.id() + "." + delivered.timestamp() + "." + delivered.body()).getBytes(StandardCharsets.UTF_8)));
            return delivered.signature() != null && List.of(delivered.signature().split(" ")).contains(expected);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- helpers

    private static JsonNode endedCall(String callId) {
        JsonNode[] call = new JsonNode[1];
        eventually("call " + callId + " ended with its cost and analysis", () -> {
            call[0] = read(as(KEY).when().get("/call/" + callId).then().statusCode(200).extract().asString());
            return call[0].path("status").asText().equals("ended") && call[0].has("costBreakdown")
                    && call[0].has("analysis");
        });
        return call[0];
    }

    private static void assertDecimal(String expected, JsonNode actual) {
        assertEquals(0, new BigDecimal(expected).compareTo(actual.decimalValue()),
                "expected " + expected + " but was " + actual);
    }

    private static String signature(String authToken, String url, Map<String, String> params) {
        return HeldCalls.signature(authToken, url, params);
    }

    private static String form(Map<String, String> params) {
        return HeldCalls.form(params);
    }

    private static String accountPath(String accountSid) {
        return HeldCalls.accountPath(accountSid);
    }

    private static String callSid() {
        return HeldCalls.callSid();
    }

    private static void eventually(String what, Supplier<Boolean> condition) {
        HeldCalls.eventually(what, EVENTUALLY, condition);
    }

    private static void eventually(String what, Duration bound, Supplier<Boolean> condition) {
        HeldCalls.eventually(what, bound, condition);
    }

    private static JsonNode read(String json) {
        return HeldCalls.read(json);
    }

    private static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }
}
