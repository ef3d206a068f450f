package dev.voiceplane.local;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeElevenLabs;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeOpenAiTts;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.ProviderFakes;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The whole stack, reached through its gateway, with the outside world faked, for system tests of held
 * conversations: one WireMock server plays the carrier's REST API, the organisation's servers (tool servers, server
 * URLs: {@code /hooks/<name>}) and the analysis model; the speech providers are the runtime's local fakes speaking
 * their real protocols, every one the runtime runs ({@link ProviderFakes}, reached through their base-URL variables,
 * as an operator points them; the streaming chat requests reach {@link #openai()} and the speech requests
 * {@link #openAiTts()} through WireMock, as one {@code VOICE_OPENAI_API_URL} serves them all in production; xai,
 * cerebras and deep-seek have chat fakes of their own, {@link #compatible}). The organisation {@link #ORG} (key
 * {@link #KEY}) has a credential for every provider ({@link #PROVIDER_KEYS}, each the key its fakes take): azure with a
 * region, azure-openai in the SDK's form with the OpenAI fake as its {@code openAIEndpoint}.
 *
 * <p>One stack serves every test class of the JVM that asks for it ({@link #shared}): it starts once, at the first
 * class, and stops when the test run ends. Test classes share its fakes, so each sets the scripts it relies on
 * (e.g. {@code openai().script(...)}, {@code deepgram().script(...)}) and names its own servers and numbers.
 *
 * <pre>{@code
 * @ExtendWith(HeldCalls.Shared.class)
 * class ToolCallsIT {
 *     static HeldCalls calls;
 *
 *     @BeforeAll
 *     static void stack(HeldCalls shared) {
 *         calls = shared;
 *     }
 *
 *     @Test
 *     void aToolIsCalled() throws Exception {
 *         String assistantId = calls.assistant("{\"name\":\"tools\",...}");
 *         HeldCalls.TwilioNumber number = calls.twilioNumber("tools", "\"assistantId\":\"" + assistantId + "\"");
 *         String sid = HeldCalls.callSid();
 *         calls.expectHangUp(number, sid);
 *         HeldCalls.Stream stream = calls.answer(number, sid);
 *         calls.carrierStatus(number, sid, "in-progress", 1, null);
 *         try (FakeTwilioCaller caller = calls.connect(stream)) { ... }
 *         JsonNode call = calls.endedCall(stream.callId());
 *     }
 * }
 * }</pre>
 */
public final class HeldCalls implements ExtensionContext.Store.CloseableResource {

    public static final String ORG = "org-h";
    public static final String KEY = "key-h";
    /** Another organisation, for scoping checks. */
    public static final String OTHER_ORG = "org-i";
    public static final String OTHER_KEY = "key-i";
    public static final String LLM_KEY = "sk-held-calls";
    public static final String DEEPGRAM_KEY = "dg-held-calls";
    public static final String ELEVENLABS_KEY = "el-held-calls";
    /** The key of {@link #ORG}'s credential of each provider, which that provider's fakes take. */
    public static final Map<String, String> PROVIDER_KEYS = Map.ofEntries(Map.entry("openai", LLM_KEY),
            Map.entry("deepgram", DEEPGRAM_KEY), Map.entry("11labs", ELEVENLABS_KEY),
            Map.entry("azure", "az-held-calls"), Map.entry("rime-ai", "rime-held-calls"),
            Map.entry("lmnt", "lmnt-held-calls"), Map.entry("anthropic", "sk-ant-held-calls"),
            Map.entry("google", "AIza-held-calls"), Map.entry("azure-openai", "aoai-held-calls"),
            Map.entry("assembly-ai", "aai-held-calls"), Map.entry("cartesia", "sk_car_held-calls"),
            Map.entry("speechmatics", "sm-held-calls"), Map.entry("soniox", "soniox-held-calls"),
            Map.entry("gladia", "gladia-held-calls"), Map.entry("xai", "xai-held-calls"),
            Map.entry("cerebras", "csk-held-calls"), Map.entry("deep-seek", "sk-ds-held-calls"));
    /** The OpenAI-compatible model providers with a chat fake of their own, and their base-URL variables. */
    public static final Map<String, String> COMPATIBLE = Map.of("xai", "VOICE_XAI_API_URL",
            "cerebras", "VOICE_CEREBRAS_API_URL", "deep-seek", "VOICE_DEEPSEEK_API_URL");
    /** The region of {@link #ORG}'s azure and azure-openai credentials. */
    public static final String AZURE_REGION = "eastus";
    /** What the custom voice's server asks for as {@code X-VAPI-SECRET} (the assistant's {@code voice.server.secret}). */
    public static final String CUSTOM_VOICE_SECRET = "cv-secret-held-calls";
    /** The analysis model's summary of every call. */
    public static final String SUMMARY = "The caller was helped.";
    /** A held conversation's steps run in real time (the caller speaks and listens at 20 ms a frame). */
    public static final Duration CONVERSATION_STEP = Duration.ofSeconds(30);
    public static final Duration EVENTUALLY = Duration.ofSeconds(60);

    private static final Pattern CALL_ID = Pattern.compile("name=\"callId\" value=\"([0-9a-f-]{36})\"");
    private static final Pattern STREAM_URL = Pattern.compile("<Stream url=\"([^\"]+)\"");
    private static final Pattern STREAM_PARAMETER = Pattern.compile("<Parameter name=\"([^\"]+)\" value=\"([^\"]*)\"");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dataDirectory;
    private final WireMockServer outside;
    private final ProviderFakes fakes;
    private final FakeOpenAiTts openAiTts;
    private final Map<String, FakeOpenAi> compatible = new LinkedHashMap<>();
    private StackUnderTest stack;
    private String publicUrl;

    private final boolean ownsDirectory;

    private HeldCalls(Path dataDirectory) throws IOException {
        this.ownsDirectory = dataDirectory == null;
        this.dataDirectory = dataDirectory != null ? dataDirectory : Files.createTempDirectory("held-calls");
        this.outside = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
        this.fakes = new ProviderFakes(PROVIDER_KEYS, CUSTOM_VOICE_SECRET);
        this.openAiTts = new FakeOpenAiTts(LLM_KEY);
        COMPATIBLE.keySet().forEach(provider -> compatible.put(provider, new FakeOpenAi(PROVIDER_KEYS.get(provider))));
    }

    /** Gives a test's (or {@code @BeforeAll}'s) {@code HeldCalls} parameter the shared stack. */
    public static final class Shared implements ParameterResolver {
        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == HeldCalls.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return shared(context);
        }
    }

    /** The stack of this test run, started at the first call (by any test class) and stopped when the run ends. */
    public static HeldCalls shared(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(HeldCalls.class, ignored -> {
                    try {
                        return start();
                    } catch (Exception e) {
                        throw new IllegalStateException("the held-calls stack did not start", e);
                    }
                }, HeldCalls.class);
    }

    private static HeldCalls start() throws Exception {
        HeldCalls calls = start(null, Map.of());
        new TreeMap<>(PROVIDER_KEYS).forEach((provider, key) -> {
            String credential = switch (provider) {
                case "azure" -> "{\"provider\":\"azure\",\"apiKey\":\"" + key + "\",\"region\":\"" + AZURE_REGION
                        + "\"}";
                // The SDK's form: the key as openAIKey, the resource's endpoint, region and deployments.
                case "azure-openai" -> "{\"provider\":\"azure-openai\",\"openAIKey\":\"" + key + "\",\"region\":\""
                        + AZURE_REGION + "\",\"models\":[\"gpt-4o-mini\"],\"openAIEndpoint\":\""
                        + calls.fakes.azureOpenAiEndpoint() + "\"}";
                default -> "{\"provider\":\"" + provider + "\",\"apiKey\":\"" + key + "\"}";
            };
            calls.as(KEY).body(credential)
                    .when().put("/credential/" + UUID.randomUUID())
                    .then().log().ifValidationFails().statusCode(200);
        });
        return calls;
    }

    /**
     * A stack of one test class's own (which closes it), in {@code dataDirectory}, with {@code moreEnvironment} on
     * top of the shared stack's; no credentials are created.
     */
    static HeldCalls start(Path dataDirectory, Map<String, String> moreEnvironment) throws Exception {
        return start(dataDirectory, moreEnvironment, List.of());
    }

    /** The same started with command-line {@code options} ({@code --talk}). */
    static HeldCalls start(Path dataDirectory, Map<String, String> moreEnvironment, List<String> options)
            throws Exception {
        HeldCalls calls = new HeldCalls(dataDirectory);
        try {
            calls.startStack(moreEnvironment, options);
            return calls;
        } catch (Exception | Error e) {
            calls.close();
            throw e;
        }
    }

    private void startStack(Map<String, String> moreEnvironment, List<String> options) throws Exception {
        outside.start();
        outside.stubFor(post(urlPathMatching("/hooks/.*")).willReturn(okJson("{}")));
        outside.stubFor(post(urlEqualTo("/v1/chat/completions"))
                .withHeader("Authorization", com.github.tomakehurst.wiremock.client.WireMock.equalTo("Bearer " + LLM_KEY))
                .willReturn(okJson("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                        + "\"message\":{\"role\":\"assistant\",\"content\":\"" + SUMMARY + "\"},\"finish_reason\":\"stop\"}],"
                        + "\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":10,\"total_tokens\":110}}")));
        outside.stubFor(post(urlEqualTo("/v1/chat/completions")).atPriority(1)
                .withRequestBody(matchingJsonPath("$[?(@.stream == true)]"))
                .willReturn(aResponse().proxiedFrom("http://127.0.0.1:" + fakes.openai().port())));
        outside.stubFor(post(urlEqualTo("/v1/audio/speech"))
                .willReturn(aResponse().proxiedFrom("http://127.0.0.1:" + openAiTts.port())));
        String fake = "http://127.0.0.1:" + outside.port();
        stack = StackUnderTest.start(dataDirectory, options, gatewayPort -> {
            publicUrl = "http://localhost:" + gatewayPort;
            Map<String, String> environment = new LinkedHashMap<>();
            environment.put("VOICE_API_KEYS", ORG + ":" + KEY + "," + OTHER_ORG + ":" + OTHER_KEY);
            environment.put("VOICE_PUBLIC_URL", publicUrl);
            environment.put("VOICE_TWILIO_API_URL", fake);
            environment.put("VOICE_VONAGE_API_URL", fake);
            environment.put("VOICE_VONAGE_REST_URL", fake);
            environment.put("VOICE_MAX_LIVE_CALLS", "100");
            environment.putAll(fakes.environment());
            environment.put("VOICE_OPENAI_API_URL", fake + "/v1");
            compatible.forEach((provider, chat) -> environment.put(COMPATIBLE.get(provider), chat.baseUrl()));
            // The organisation's servers are on this machine; retries come back within seconds.
            environment.put("VOICE_WEBHOOK_ALLOW_PRIVATE", "true");
            environment.put("VOICE_WEBHOOK_SCHEDULE", "0s" + ",1s".repeat(30));
            environment.put("VOICE_WEBHOOK_TIMEOUT", "3s");
            // Services call each other within 2 s in production; a test machine busy with builds may take longer for
            // a cold service's first answers, which would turn a set-up step into a 503 that no test is about.
            for (String peer : List.of("ASSISTANT_SERVICE", "CALL_SERVICE", "CREDENTIAL_SERVICE", "FILE_SERVICE",
                    "FILE_SERVICE_SEARCH", "TELEPHONY_SERVICE")) {
                environment.put("VOICE_PEER_" + peer + "_TIMEOUT", "15s");
            }
            // Likewise the runtime's knowledge-base search, whose first answers come from a cold file-service.
            environment.put("VOICE_KNOWLEDGE_DEADLINE", "15s");
            environment.putAll(moreEnvironment);
            return environment;
        });
    }

    @Override
    public void close() throws Exception {
        try {
            if (stack != null) {
                stack.stop();
            }
        } finally {
            outside.stop();
            fakes.close();
            openAiTts.close();
            for (FakeOpenAi chat : compatible.values()) {
                chat.close();
            }
            if (ownsDirectory) {
                try (var paths = Files.walk(dataDirectory)) {
                    paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
                }
            }
        }
    }

    // ---- the parts

    /** The gateway's public address, {@code http://localhost:<port>}. */
    public String publicUrl() {
        return publicUrl;
    }

    /** The carrier's REST API, the organisation's servers ({@link #server}) and the analysis model. */
    public WireMockServer outside() {
        return outside;
    }

    public FakeDeepgram deepgram() {
        return fakes.deepgram();
    }

    public FakeOpenAi openai() {
        return fakes.openai();
    }

    public FakeElevenLabs elevenlabs() {
        return fakes.elevenlabs();
    }

    /** Every provider's fake (the three above among them). */
    public ProviderFakes fakes() {
        return fakes;
    }

    /** OpenAI's speech ({@code voice.provider: openai}), reached through WireMock at {@code VOICE_OPENAI_API_URL}. */
    public FakeOpenAiTts openAiTts() {
        return openAiTts;
    }

    /** The chat fake of OpenAI-compatible model provider {@code provider} (one of {@link #COMPATIBLE}). */
    public FakeOpenAi compatible(String provider) {
        return compatible.get(provider);
    }

    /** The stack itself: service ports, its output, SIGTERM or kill a service. */
    StackUnderTest stack() {
        return stack;
    }

    /** A request through the gateway with an organisation's key. */
    public RequestSpecification as(String key) {
        return given().baseUri("http://localhost").port(stack.gatewayPort)
                .header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    // ---- what a client sets up, through the gateway

    /** Creates an assistant of {@link #ORG}; returns its id. */
    public String assistant(String json) {
        return as(KEY).body(json).when().post("/assistant").then().log().ifValidationFails().statusCode(201).extract().path("id");
    }

    /** Creates a squad of {@link #ORG}; returns its id. */
    public String squad(String json) {
        return as(KEY).body(json).when().post("/squad").then().statusCode(201).extract().path("id");
    }

    /** Uploads a text file of {@link #ORG} through the gateway; returns its id once it is indexed. */
    public String upload(String name, String text) {
        return given().baseUri("http://localhost").port(stack.gatewayPort)
                .header("Authorization", "Bearer " + KEY)
                .multiPart("file", name, text.getBytes(StandardCharsets.UTF_8))
                .when().post("/file/upload")
                .then().statusCode(201)
                .extract().path("id");
    }

    /** A Twilio number of {@link #ORG}, imported through the gateway ({@code numberSid}: the carrier's {@code PN…}). */
    public record TwilioNumber(String id, String number, String accountSid, String authToken, String numberSid) {
    }

    /**
     * Imports a Twilio number (the fake carrier knows it) answered by {@code owner}, a JSON fragment such as
     * {@code "assistantId":"…"} (a squad call comes from an {@code assistant-request} answer: numbers name no squad).
     */
    public TwilioNumber twilioNumber(String name, String owner) {
        return twilioNumber(name, owner, answer -> {
        });
    }

    /** As {@link #twilioNumber(String, String)}, the import's answer checked further by {@code answer}. */
    public TwilioNumber twilioNumber(String name, String owner, Consumer<ValidatableResponse> answer) {
        return twilioNumber(name, UUID.randomUUID().toString().replace("-", ""), owner, answer);
    }

    /**
     * Imports a Twilio number of {@code authToken} (a test that looks for the token where it must not be chooses
     * it), with {@code fields} (a JSON fragment: its owner, its server) in the import, whose answer (201, the number
     * echoed, no auth token) {@code answer} checks further.
     */
    public TwilioNumber twilioNumber(String name, String authToken, String fields,
            Consumer<ValidatableResponse> answer) {
        String number = "+1555" + ThreadLocalRandom.current().nextLong(1_000_000L, 9_999_999L);
        String accountSid = "AC" + UUID.randomUUID().toString().replace("-", "");
        String numberSid = "PN" + UUID.randomUUID().toString().replace("-", "");
        outside.stubFor(get(urlPathEqualTo(accountPath(accountSid) + "/IncomingPhoneNumbers.json"))
                .withBasicAuth(accountSid, authToken)
                .willReturn(okJson("{\"incoming_phone_numbers\":[{\"sid\":\"" + numberSid + "\",\"phone_number\":\""
                        + number + "\",\"voice_url\":\"\",\"status_callback\":\"\"}],\"page\":0}")));
        outside.stubFor(post(urlEqualTo(accountPath(accountSid) + "/IncomingPhoneNumbers/" + numberSid + ".json"))
                .withBasicAuth(accountSid, authToken)
                .willReturn(okJson("{\"sid\":\"" + numberSid + "\"}")));
        ValidatableResponse imported = as(KEY).body("{\"twilioPhoneNumber\":\"" + number + "\",\"twilioAccountSid\":\""
                        + accountSid + "\",\"twilioAuthToken\":\"" + authToken + "\"," + fields + ",\"name\":\"" + name
                        + "\"}")
                .when().post("/phone-number/import/twilio")
                .then().log().ifValidationFails().statusCode(201)
                .body("number", org.hamcrest.Matchers.equalTo(number))
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("twilioAuthToken")));
        answer.accept(imported);
        return new TwilioNumber(imported.extract().path("id"), number, accountSid, authToken, numberSid);
    }

    // ---- the carrier

    /** A carrier call id ({@code CA…}). */
    public static String callSid() {
        return "CA" + UUID.randomUUID().toString().replace("-", "");
    }

    /** The carrier's path of a call, where it is updated (hung up, redirected). */
    public static String carrierCallPath(TwilioNumber number, String sid) {
        return accountPath(number.accountSid()) + "/Calls/" + sid + ".json";
    }

    /** The carrier answers updates of call {@code sid} (a hang-up, a redirect) with 200. */
    public void expectCallUpdates(TwilioNumber number, String sid) {
        outside.stubFor(post(urlEqualTo(carrierCallPath(number, sid)))
                .withBasicAuth(number.accountSid(), number.authToken())
                .willReturn(okJson("{\"sid\":\"" + sid + "\",\"status\":\"in-progress\"}")));
    }

    /** The bodies of the updates the carrier received for call {@code sid}, in order. */
    public List<String> callUpdates(TwilioNumber number, String sid) {
        return outside.findAll(postRequestedFor(urlEqualTo(carrierCallPath(number, sid)))).stream()
                .map(request -> java.net.URLDecoder.decode(request.getBodyAsString(), StandardCharsets.UTF_8))
                .toList();
    }

    /** The media stream the carrier is told to open: its URL and its {@code <Parameter>}s. */
    public record Stream(String url, String callId, String orgId, String token) {
    }

    /** The carrier's signed inbound-call webhook for {@code number}; answers the TwiML's media stream. */
    public Stream answer(TwilioNumber number, String sid) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("CallSid", sid);
        params.put("From", "+14155550123");
        params.put("To", number.number());
        params.put("CallStatus", "ringing");
        params.put("Direction", "inbound");
        params.put("ApiVersion", "2010-04-01");
        params.put("AccountSid", number.accountSid());
        String twiml = given().baseUri("http://localhost").port(stack.gatewayPort).contentType(ContentType.URLENC)
                .header("X-Twilio-Signature", signature(number.authToken(), publicUrl + "/twilio/inbound_call", params))
                .body(form(params)).when().post("/twilio/inbound_call")
                .then().statusCode(200)
                .body(containsString("<Stream url=\""))
                .extract().asString();
        Matcher callId = CALL_ID.matcher(twiml);
        Matcher url = STREAM_URL.matcher(twiml);
        assertTrue(callId.find() && url.find(), twiml);
        Map<String, String> parameters = new LinkedHashMap<>();
        Matcher parameter = STREAM_PARAMETER.matcher(twiml);
        while (parameter.find()) {
            parameters.put(parameter.group(1), parameter.group(2));
        }
        assertEquals(callId.group(1), parameters.get("callId"), twiml);
        return new Stream(url.group(1), parameters.get("callId"), parameters.get("orgId"), parameters.get("token"));
    }

    /** The carrier's signed status callback of an inbound call; must be acknowledged. */
    public void carrierStatus(TwilioNumber number, String sid, String status, int sequence, Integer duration) {
        carrierStatus(number, sid, status, sequence, duration, Map.of());
    }

    /** The same with more parameters (e.g. {@code AnsweredBy} from machine detection). */
    public void carrierStatus(TwilioNumber number, String sid, String status, int sequence, Integer duration,
            Map<String, String> more) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("AccountSid", number.accountSid());
        params.put("CallSid", sid);
        params.put("CallStatus", status);
        params.put("Direction", "inbound");
        params.put("From", "+14155550123");
        params.put("To", number.number());
        params.put("SequenceNumber", Integer.toString(sequence));
        if (duration != null) {
            params.put("CallDuration", duration.toString());
        }
        params.putAll(more);
        given().baseUri("http://localhost").port(stack.gatewayPort).contentType(ContentType.URLENC)
                .header("X-Twilio-Signature", signature(number.authToken(), publicUrl + "/twilio/status", params))
                .body(form(params)).when().post("/twilio/status")
                .then().statusCode(200);
    }

    /** The carrier opens the media stream, through the gateway, with the TwiML's parameters. */
    public FakeTwilioCaller connect(Stream stream) throws Exception {
        return FakeTwilioCaller.connect(stream.url(),
                Map.of("callId", stream.callId(), "orgId", stream.orgId(), "token", stream.token()));
    }

    /** Twilio's request signature: HMAC-SHA1 of the URL followed by each parameter name and value, sorted by name. */
    static String signature(String authToken, String url, Map<String, String> params) {
        StringBuilder signed = new StringBuilder(url);
        new TreeMap<>(params).forEach((name, value) -> signed.append(name).append(value));
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(authToken.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(signed.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String form(Map<String, String> params) {
        return params.entrySet().stream()
                .map(entry -> URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(entry.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    static String accountPath(String accountSid) {
        return "/2010-04-01/Accounts/" + accountSid;
    }

    // ---- the organisation's servers

    /** The address of the organisation's server {@code name} (WireMock answers {@code {}} unless stubbed). */
    public String server(String name) {
        return "http://127.0.0.1:" + outside.port() + "/hooks/" + name;
    }

    /** The bodies' {@code message}s server {@code name} received for call {@code callId}, in arrival order. */
    public List<JsonNode> received(String name, String callId) {
        return outside.getAllServeEvents().stream()
                .filter(event -> event.getRequest().getUrl().equals("/hooks/" + name))
                .sorted(Comparator.comparing(event -> event.getRequest().getLoggedDate()))
                .map(event -> read(event.getRequest().getBodyAsString()).path("message"))
                .filter(message -> callId.equals(message.path("call").path("id").asText()))
                .toList();
    }

    // ---- reading back

    /** The call once it ended with its cost and analysis, read through the gateway. */
    public JsonNode endedCall(String callId) {
        JsonNode[] call = new JsonNode[1];
        eventually("call " + callId + " ended with its cost and analysis", () -> {
            call[0] = read(as(KEY).when().get("/call/" + callId).then().statusCode(200).extract().asString());
            return call[0].path("status").asText().equals("ended") && call[0].has("costBreakdown")
                    && call[0].has("analysis");
        });
        return call[0];
    }

    /** The call's transcript messages as {@code role: message}, system messages left out. */
    public static List<String> messages(JsonNode call) {
        List<String> messages = new java.util.ArrayList<>();
        call.path("messages").forEach(message -> messages.add(message.path("role").asText() + ": "
                + message.path("message").asText()));
        return messages.stream().filter(message -> !message.startsWith("system: ")).toList();
    }

    public static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    /** Polls {@code condition} until it holds, at most {@link #EVENTUALLY}. */
    public static void eventually(String what, Supplier<Boolean> condition) {
        eventually(what, EVENTUALLY, condition);
    }

    /** Polls {@code condition} until it holds, at most {@code bound} (the kit's {@link Eventually}). */
    public static void eventually(String what, Duration bound, Supplier<Boolean> condition) {
        Eventually.until(what, bound, condition::get);
    }
}
