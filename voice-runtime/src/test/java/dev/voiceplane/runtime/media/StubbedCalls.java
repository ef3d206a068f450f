package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.voiceplane.kit.auth.MediaTokens;
import dev.voiceplane.kit.testing.TestKeys;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import io.restassured.RestAssured;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.LogRecord;

/**
 * Calls as call-service (WireMock) would hand them to the runtime: the attach answer with the assistant, the events
 * route, and the organisation's keys for the fake providers; the events the runtime reported, read back.
 */
final class StubbedCalls {

    private final WireMockServer wireMock;
    private final MediaTokens tokens = new MediaTokens(TestKeys.MEDIA_TOKEN_KEY);
    private final ObjectMapper json = new ObjectMapper();

    StubbedCalls(WireMockServer wireMock) {
        this.wireMock = wireMock;
    }

    /** An assistant on the fake providers (Deepgram, OpenAI, ElevenLabs) with {@code extra} JSON members. */
    static String assistant(String extra) {
        return AssistantJson.onFakes().with(extra).json();
    }

    /** A call the runtime may attach to, in an organisation of its own with keys for the three providers. */
    String call(UUID callId, String assistant) {
        return call(callId, assistant, Map.of("deepgram", FakeProviders.DEEPGRAM_KEY, "openai", FakeProviders.OPENAI_KEY,
                "11labs", FakeProviders.ELEVENLABS_KEY));
    }

    /**
     * A call the runtime may attach to, in an organisation of its own whose credentials are {@code credentials}
     * (credential provider → the secret's JSON members after {@code id} and {@code provider}, e.g.
     * {@code "apiKey":"k","region":"eastus"}, or a bare key, taken as the {@code apiKey}).
     */
    String call(UUID callId, String assistant, Map<String, String> credentials) {
        return call(callId, assistant, credentials, "{}");
    }

    /** The same, with the call's {@code variableValues} (a JSON object). */
    String call(UUID callId, String assistant, Map<String, String> credentials, String variableValues) {
        String org = "org-" + callId;
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .withHeader("X-Voice-Org-Id", equalTo(org))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"inboundPhoneCall\"},\"assistant\":"
                                + assistant + ",\"variableValues\":" + variableValues + "}")));
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/events"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"recorded\":true,\"applied\":true,\"status\":\"in-progress\"}")));
        credentials(wireMock, org, callId.toString(), credentials);
        return org;
    }

    /**
     * credential-service (WireMock) knows {@code org}'s {@code credentials} (credential provider → the secret's JSON
     * members after {@code id} and {@code provider}, or a bare key, taken as the {@code apiKey}): one credential per
     * provider, of id {@code <provider>-<idSuffix>}, listed for the organisation and its secret read by id. Every
     * runtime test's credentials are stubbed here.
     */
    static void credentials(WireMockServer wireMock, String org, String idSuffix, Map<String, String> credentials) {
        credentials.forEach((provider, secret) -> {
            String id = provider + "-" + idSuffix;
            String members = secret.startsWith("\"") ? secret : "\"apiKey\":\"" + secret + "\"";
            wireMock.stubFor(get(urlPathEqualTo("/internal/credential")).withQueryParam("provider", equalTo(provider))
                    .withHeader("X-Voice-Org-Id", equalTo(org))
                    .willReturn(aResponse().withHeader("Content-Type", "application/json")
                            .withBody("[{\"id\":\"" + id + "\",\"provider\":\"" + provider + "\"}]")));
            wireMock.stubFor(get(urlEqualTo("/internal/credential/" + id + "/secret"))
                    .willReturn(aResponse().withHeader("Content-Type", "application/json")
                            .withBody("{\"id\":\"" + id + "\",\"provider\":\"" + provider + "\"," + members + "}")));
        });
    }

    /** credential-service (WireMock) lists no credential of {@code provider}, for any organisation. */
    static void noCredential(WireMockServer wireMock, String provider) {
        wireMock.stubFor(get(urlPathEqualTo("/internal/credential")).withQueryParam("provider", equalTo(provider))
                .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody("[]")));
    }

    /** credential-service (WireMock) lists no credential of any provider for {@code org}. */
    static void noCredentials(WireMockServer wireMock, String org) {
        wireMock.stubFor(get(urlPathEqualTo("/internal/credential")).withHeader("X-Voice-Org-Id", equalTo(org))
                .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody("[]")));
    }

    /** The carrier's media stream for the call (on {@code vertx}, or its own when null). */
    FakeTwilioCaller phoneCall(Vertx vertx, UUID callId, String org) {
        return FakeTwilioCaller.connect(vertx, streamUrl(), Map.of("callId", callId.toString(), "orgId", org,
                "token", token(callId, org)), null);
    }

    String token(UUID callId, String org) {
        return tokens.issue(org, callId, Instant.now().plusSeconds(60));
    }

    static String streamUrl() {
        return "ws://localhost:" + RestAssured.port + "/media/stream";
    }

    /** The events reported for the call, in sequence order. */
    List<JsonNode> events(UUID callId) {
        List<JsonNode> events = new ArrayList<>();
        for (LoggedRequest request : wireMock.findAll(postRequestedFor(
                urlEqualTo("/internal/call/" + callId + "/runtime/events")))) {
            try {
                events.add(json.readTree(request.getBodyAsString()));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        events.sort(Comparator.comparingLong(event -> event.path("sequence").asLong()));
        return events;
    }

    /** The {@code ended} event, or null while there is none. */
    JsonNode ended(UUID callId) {
        return events(callId).stream().filter(event -> "ended".equals(event.path("type").asText())).findFirst()
                .orElse(null);
    }

    List<String> transcript(UUID callId) {
        return events(callId).stream().filter(event -> "message".equals(event.path("type").asText()))
                .map(event -> event.path("message").path("role").asText() + ": "
                        + event.path("message").path("message").asText())
                .toList();
    }

    /** The runtime's live-calls gauge, as Prometheus reads it. */
    static double liveCalls() {
        String metrics = RestAssured.get("/q/metrics").asString();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("voice_runtime_live_calls ") || line.startsWith("voice_runtime_live_calls{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no voice_runtime_live_calls in /q/metrics");
    }

    /** Every log record of the application while installed (the root handler sees the runtime's loggers). */
    static final class LogCapture extends Handler implements AutoCloseable {
        private final List<LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();

        LogCapture() {
            java.util.logging.Logger.getLogger("").addHandler(this);
        }

        List<LogRecord> records() {
            return List.copyOf(records);
        }

        /** Records of level ERROR (SEVERE) or above that carry an exception: what an uncaught error logs. */
        List<String> uncaught() {
            return records.stream().filter(record -> record.getThrown() != null
                    && record.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue())
                    .map(record -> record.getLoggerName() + ": " + record.getMessage() + " " + record.getThrown())
                    .toList();
        }

        boolean logged(String fragment) {
            return records.stream().anyMatch(record -> formatted(record).contains(fragment));
        }

        private static String formatted(LogRecord record) {
            if (record instanceof org.jboss.logmanager.ExtLogRecord extended) {
                return String.valueOf(extended.getFormattedMessage());
            }
            String message = record.getMessage();
            Object[] parameters = record.getParameters();
            if (message == null) {
                return "";
            }
            try {
                return parameters == null || parameters.length == 0 ? message : String.format(message, parameters);
            } catch (RuntimeException e) {
                return message + " " + java.util.Arrays.toString(parameters);
            }
        }

        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            java.util.logging.Logger.getLogger("").removeHandler(this);
        }
    }
}
