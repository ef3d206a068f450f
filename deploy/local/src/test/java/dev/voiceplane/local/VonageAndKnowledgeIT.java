package dev.voiceplane.local;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeVonageCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.restassured.http.ContentType;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 29's items 7 and 8 through the gateway, on the shared held-calls stack ({@link HeldCalls}): a Vonage number
 * imported through its own application answers a signed call with the NCCO's websocket, and the call is held over
 * Vonage's WebSocket protocol ({@link FakeVonageCaller}) from the greeting through a turn to the caller's hang-up;
 * and an assistant whose knowledge base is an uploaded file answers a phone call with that file's passage in the
 * model's request (the real file-service searching the real database).
 */
@ExtendWith(HeldCalls.Shared.class)
class VonageAndKnowledgeIT {

    private static HeldCalls calls;

    @BeforeAll
    static void stack(HeldCalls shared) {
        calls = shared;
    }

    private static String assistant(String name, String greeting, String model) {
        return "{\"name\":\"" + name + "\",\"firstMessage\":\"" + greeting + "\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You answer the phone for a cafe.\"}]" + model + "},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\",\"inputMinCharacters\":10},"
                + "\"endCallPhrases\":[\"goodbye\"]}";
    }

    // ---- Vonage, as the carrier and its signed webhooks -------------------------------------------------------

    /** A Vonage account: the credential of {@link HeldCalls#ORG} and the signature secret that signs webhooks. */
    private record VonageNumber(String id, String msisdn, String apiKey, String signatureSecret) {
    }

    /** Imports a Vonage number (the fake carrier knows it and creates its application) answered by the assistant. */
    private static VonageNumber vonageNumber(String assistantId) throws Exception {
        String apiKey = "k" + UUID.randomUUID().toString().substring(0, 8);
        String apiSecret = "s-" + UUID.randomUUID();
        String signatureSecret = "sig-" + UUID.randomUUID() + UUID.randomUUID();
        String credentialId = calls.as(HeldCalls.KEY).body(new JsonObject().put("provider", "vonage")
                        .put("apiKey", apiKey).put("apiSecret", apiSecret).put("signatureSecret", signatureSecret)
                        .encode())
                .when().post("/credential").then().statusCode(201).extract().path("id");
        String msisdn = "4477" + ThreadLocalRandom.current().nextLong(10_000_000L, 99_999_999L);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        var outside = calls.outside();
        outside.stubFor(get(urlPathEqualTo("/account/numbers"))
                .withQueryParam("api_key", WireMock.equalTo(apiKey))
                .withQueryParam("pattern", WireMock.equalTo(msisdn))
                .willReturn(okJson("{\"count\":1,\"numbers\":[{\"country\":\"GB\",\"msisdn\":\"" + msisdn + "\"}]}")));
        outside.stubFor(post(urlEqualTo("/v2/applications")).withBasicAuth(apiKey, apiSecret)
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody(new JsonObject().put("id", "app-" + UUID.randomUUID())
                                .put("keys", new JsonObject().put("private_key", pem)).encode())));
        outside.stubFor(post(urlEqualTo("/number/update")).withRequestBody(WireMock.containing("msisdn=" + msisdn))
                .willReturn(okJson("{\"error-code\":\"200\",\"error-code-label\":\"success\"}")));
        String id = calls.as(HeldCalls.KEY).body("{\"vonagePhoneNumber\":\"+" + msisdn + "\",\"credentialId\":\""
                        + credentialId + "\",\"assistantId\":\"" + assistantId + "\",\"name\":\"vonage\"}")
                .when().post("/phone-number/import/vonage").then().log().ifValidationFails().statusCode(201)
                .extract().path("id");
        return new VonageNumber(id, msisdn, apiKey, signatureSecret);
    }

    /** Vonage's signed webhook: an HS256 JWT under the signature secret, with the body's SHA-256. */
    private static String signed(VonageNumber number, byte[] body) throws Exception {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String header = url.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String claims = url.encodeToString(new JsonObject().put("iat", Instant.now().getEpochSecond())
                .put("jti", UUID.randomUUID().toString()).put("iss", "Vonage").put("api_key", number.apiKey())
                .put("payload_hash", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)))
                .encode().getBytes(StandardCharsets.UTF_8));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(number.signatureSecret().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String signature = url.encodeToString(mac.doFinal((header + "." + claims).getBytes(StandardCharsets.UTF_8)));
        return "Bearer " + header + "." + claims + "." + signature;
    }

    private static io.restassured.response.ValidatableResponse webhook(VonageNumber number, String path,
            JsonObject payload) throws Exception {
        byte[] body = payload.encode().getBytes(StandardCharsets.UTF_8);
        return given().baseUri(calls.publicUrl()).contentType(ContentType.JSON)
                .header("Authorization", signed(number, body)).body(body).when().post(path).then();
    }

    private static void event(VonageNumber number, String uuid, String status, Integer duration) throws Exception {
        JsonObject event = new JsonObject().put("uuid", uuid).put("conversation_uuid", "CON-" + uuid)
                .put("status", status).put("direction", "inbound").put("from", "447700900001")
                .put("to", number.msisdn()).put("timestamp", Instant.now().toString());
        if (duration != null) {
            event.put("duration", duration.toString());
        }
        webhook(number, "/vonage/event", event).statusCode(204);
    }

    @Test
    void aVonageCallIsHeldThroughTheGateway() throws Exception {
        String greeting = "Harbour Cafe on Vonage, how can I help?";
        String question = "Do you have a table for two tonight?";
        calls.deepgram().script(question);
        calls.openai().script(request -> new FakeOpenAi.Text(question.equals(FakeOpenAi.lastUserMessage(request))
                ? "Yes, we have a table at eight." : "Sure."));
        String assistantId = calls.assistant(assistant("vonage", greeting, ""));
        VonageNumber number = vonageNumber(assistantId);
        String uuid = "uuid-" + UUID.randomUUID();
        calls.outside().stubFor(put(urlEqualTo("/v1/calls/" + uuid)).willReturn(aResponse().withStatus(204)));

        JsonArray ncco = new JsonArray(webhook(number, "/vonage/answer", new JsonObject().put("to", number.msisdn())
                .put("from", "447700900001").put("uuid", uuid).put("conversation_uuid", "CON-" + uuid))
                .statusCode(200).extract().asString());
        JsonObject endpoint = ncco.getJsonObject(0).getJsonArray("endpoint").getJsonObject(0);
        assertEquals("websocket", endpoint.getString("type"), ncco.encode());
        assertEquals(FakeVonageCaller.CONTENT_TYPE, endpoint.getString("content-type"));
        Map<String, String> headers = new LinkedHashMap<>();
        endpoint.getJsonObject("headers").forEach(header -> headers.put(header.getKey(), (String) header.getValue()));
        String callId = headers.get("callId");
        event(number, uuid, "answered", null);

        try (FakeVonageCaller caller = FakeVonageCaller.connect(endpoint.getString("uri"), headers)) {
            HeldCalls.eventually("the greeting to be heard and played out", HeldCalls.CONVERSATION_STEP,
                    () -> caller.firstAudioNanos() > 0 && !caller.playing());
            FakeCaller.Utterance asked = caller.say(SpeechFixtures.pcm16k(question));
            assertTrue(asked.voiceToVoiceMs(HeldCalls.CONVERSATION_STEP) > 0, "the reply was heard");
            // Without marks, the reply is in the transcript once the played-out clock says it has played.
            HeldCalls.eventually("the reply to be played out and recorded", HeldCalls.CONVERSATION_STEP,
                    () -> HeldCalls.messages(HeldCalls.read(calls.as(HeldCalls.KEY).when().get("/call/" + callId)
                            .then().statusCode(200).extract().asString())).size() == 3);
            assertTrue(caller.receivedMarks().isEmpty(), "Vonage has no marks");
            caller.hangUp().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        event(number, uuid, "completed", 12);
        JsonNode call = calls.endedCall(callId);
        assertEquals("vonage", call.path("phoneCallProvider").asText(), call.toString());
        assertEquals(uuid, call.path("phoneCallProviderId").asText(), call.toString());
        assertEquals("customer-ended-call", call.path("endedReason").asText(), call.toString());
        assertEquals(List.of("bot: " + greeting, "user: " + question, "bot: Yes, we have a table at eight."),
                HeldCalls.messages(call), call.toString());
    }

    @Test
    void theModelsRequestCarriesThePassageOfAnUploadedFile() throws Exception {
        String passage = "The Harbour Cafe serves brunch from nine until three on Sundays.";
        // Long enough to be cut into several passages (at most 700 characters each): brunch, history, parking.
        String history = "The building was a sail loft before it was a cafe. ".repeat(16);
        String fileId = calls.upload("brunch.md", "# Brunch\n\n" + passage + "\n\n" + history + "\n\n# Parking\n\n"
                + "There is no parking at the cafe; the town car park is two streets away.");
        String question = "Until when do you serve brunch on Sunday?";
        String reply = "Brunch is until three on Sundays. Goodbye!";
        calls.deepgram().script(question);
        calls.openai().script(request -> new FakeOpenAi.Text(question.equals(FakeOpenAi.lastUserMessage(request))
                ? reply : "Sure."));
        String assistantId = calls.assistant(assistant("knowledge", "Harbour Cafe, hello.",
                ",\"knowledgeBase\":{\"provider\":\"canonical\",\"topK\":1,\"fileIds\":[\"" + fileId + "\"]}"));
        HeldCalls.TwilioNumber number = calls.twilioNumber("knowledge", "\"assistantId\":\"" + assistantId + "\"");
        String sid = HeldCalls.callSid();
        calls.expectCallUpdates(number, sid);
        HeldCalls.Stream stream = calls.answer(number, sid);
        calls.carrierStatus(number, sid, "in-progress", 1, null);
        try (FakeTwilioCaller caller = calls.connect(stream)) {
            HeldCalls.eventually("the greeting to be heard and played out", HeldCalls.CONVERSATION_STEP,
                    () -> caller.firstAudioNanos() > 0 && !caller.playing() && !caller.receivedMarks().isEmpty()
                            && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.say(SpeechFixtures.mulaw8k(question)).voiceToVoiceMs(HeldCalls.CONVERSATION_STEP);
            caller.closed().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        calls.carrierStatus(number, sid, "completed", 2, 9);
        JsonNode call = calls.endedCall(stream.callId());
        assertEquals("assistant-said-end-call-phrase", call.path("endedReason").asText(), call.toString());

        JsonObject request = calls.openai().requests().stream()
                .filter(sent -> question.equals(FakeOpenAi.lastUserMessage(sent))).findFirst()
                .orElseThrow(() -> new AssertionError("no model request for the question"));
        JsonArray messages = request.getJsonArray("messages");
        JsonObject knowledge = messages.getJsonObject(messages.size() - 2);
        assertEquals("system", knowledge.getString("role"), messages.encode());
        assertTrue(knowledge.getString("content").contains(passage), "the uploaded file's passage: " + messages.encode());
        assertTrue(!knowledge.getString("content").contains("town car park"), "topK 1: the best passage only");
        assertEquals(question, messages.getJsonObject(messages.size() - 1).getString("content"));
    }
}
