package dev.voiceplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code deploy/local/up --talk}: once the stack is ready, an assistant to talk to in the browser. Each provider key
 * comes from the environment ({@code DEEPGRAM_API_KEY}, {@code OPENAI_API_KEY}, {@code ELEVENLABS_API_KEY}) or, in a
 * terminal, is asked for without echo; a provider the organisation already has a credential for is not asked for.
 * Each key given becomes a credential of its own id ({@code POST /credential}, named {@value #NAME}); the ones earlier
 * runs created for that provider are then deleted. The assistant {@value #NAME} is created, or brought up to date:
 * a Deepgram transcriber, an OpenAI model, an ElevenLabs voice (an OpenAI voice without an ElevenLabs key), and the
 * {@code clientMessages} the page shows. The answer is the address of the page the gateway serves at {@code /talk}
 * for that assistant. A key is never printed, logged or kept anywhere but in credential-service.
 */
final class TalkSetup {

    static final String NAME = "voiceplane talk";
    static final String FIRST_MESSAGE = "Hello! This is your voiceplane assistant. What would you like to talk about?";
    /** ElevenLabs' "Rachel", one of its default voices. */
    static final String ELEVENLABS_VOICE = "21m00Tcm4TlvDq8ikWAM";
    static final String OPENAI_VOICE = "alloy";

    /** Asks for a secret without echo; answers null when there is no terminal to ask in. */
    interface Prompt {
        char[] ask(String question);
    }

    /** A provider the assistant needs: its credential provider, the variable its key may come from, what it is for. */
    private record Need(String provider, String variable, String question, boolean optional) {
    }

    private static final List<Need> NEEDS = List.of(
            new Need("deepgram", "DEEPGRAM_API_KEY", "Deepgram API key (the assistant's transcriber)", false),
            new Need("openai", "OPENAI_API_KEY", "OpenAI API key (its model)", false),
            new Need("11labs", "ELEVENLABS_API_KEY", "ElevenLabs API key (its voice; Enter for an OpenAI voice)", true));

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI gateway;
    private final String apiKey;
    private final PrintStream out;

    TalkSetup(URI gateway, String apiKey, PrintStream out) {
        this.gateway = gateway;
        this.apiKey = apiKey;
        this.out = out;
    }

    /** What stopped the set-up, said in words. */
    static final class Stopped extends Exception {
        Stopped(String message) {
            super(message, null, false, false);
        }
    }

    /** The first API key of {@code VOICE_API_KEYS} that is written out ({@code <orgId>:<key>}), if any. */
    static Optional<String> plainKey(String apiKeys) {
        for (String entry : apiKeys.split(",")) {
            int colon = entry.indexOf(':');
            String key = colon < 0 ? "" : entry.substring(colon + 1).strip();
            if (!key.isEmpty() && !key.startsWith("sha256:")) {
                return Optional.of(key);
            }
        }
        return Optional.empty();
    }

    /** Asks in the terminal {@code up} runs in; no terminal (output piped, a service manager): nobody to ask. */
    static Prompt terminal() {
        java.io.Console console = System.console();
        if (console == null || !isTerminal(console)) {
            return question -> null;
        }
        return question -> console.readPassword("%s: ", question);
    }

    /** Console.isTerminal (JDK 22+, where a console exists even without a terminal); on JDK 21 a console is one. */
    private static boolean isTerminal(java.io.Console console) {
        try {
            Method isTerminal = java.io.Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    /** Sets everything up; the page's address for the assistant. */
    String run(Map<String, String> environment, Prompt prompt) throws Stopped, InterruptedException {
        List<JsonNode> stored = list("/credential?limit=1000");
        Map<String, char[]> given = new LinkedHashMap<>();
        Map<String, String> from = new LinkedHashMap<>();
        List<String> usable = new ArrayList<>();
        try {
            for (Need need : NEEDS) {
                Optional<String> variable = StackOptions.value(environment, need.variable());
                boolean hasOne = stored.stream().anyMatch(c -> need.provider().equals(c.path("provider").asText()));
                if (variable.isPresent()) {
                    given.put(need.provider(), variable.get().strip().toCharArray());
                    from.put(need.provider(), "from " + need.variable());
                } else if (!hasOne) {
                    char[] typed = prompt.ask(need.question());
                    if (typed != null && !new String(typed).isBlank()) {
                        given.put(need.provider(), new String(typed).strip().toCharArray());
                        from.put(need.provider(), "as typed");
                    } else if (!need.optional()) {
                        throw new Stopped("no " + need.provider() + " key: set " + need.variable()
                                + (typed == null ? " (there is no terminal to ask in)" : "")
                                + ", or give the organisation a " + need.provider() + " credential (POST /credential)");
                    }
                    if (typed != null) {
                        Arrays.fill(typed, ' ');
                    }
                }
                if (hasOne || given.containsKey(need.provider())) {
                    usable.add(need.provider());
                }
            }
            for (Map.Entry<String, char[]> key : given.entrySet()) {
                store(key.getKey(), key.getValue(), from.get(key.getKey()), stored);
            }
        } finally {
            given.values().forEach(key -> Arrays.fill(key, ' '));
        }
        boolean elevenLabs = usable.contains("11labs");
        String assistantId = assistant(elevenLabs);
        out.println("talk: assistant \"" + NAME + "\" " + assistantId + ": Deepgram transcriber, OpenAI gpt-4o-mini, "
                + (elevenLabs ? "ElevenLabs voice" : "OpenAI voice " + OPENAI_VOICE));
        return gateway.resolve(LocalStack.WEB_CALL_PATH) + "?assistantId=" + assistantId;
    }

    /** A new credential of its own id for the key; then the ones earlier runs made for the provider go. */
    private void store(String provider, char[] key, String from, List<JsonNode> stored)
            throws Stopped, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("provider", provider).put("name", NAME)
                .put("apiKey", new String(key));
        String id = send("POST", "/credential", body).path("id").asText();
        out.println("talk: " + provider + " credential " + id + " created (key " + from + ")");
        for (JsonNode earlier : stored) {
            if (provider.equals(earlier.path("provider").asText()) && NAME.equals(earlier.path("name").asText())) {
                send("DELETE", "/credential/" + earlier.path("id").asText(), null);
                out.println("talk: " + provider + " credential " + earlier.path("id").asText()
                        + " of an earlier run deleted");
            }
        }
    }

    /** The assistant {@value #NAME}: created, or the newest one of that name brought up to date. */
    private String assistant(boolean elevenLabs) throws Stopped, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        body.put("name", NAME);
        body.put("firstMessage", FIRST_MESSAGE);
        body.putObject("transcriber").put("provider", "deepgram").put("model", "nova-2").put("language", "en");
        ObjectNode model = body.putObject("model").put("provider", "openai").put("model", "gpt-4o-mini");
        model.putArray("messages").addObject().put("role", "system").put("content", "You are a friendly assistant"
                + " on a voice call from a web page. Answer in one or two short sentences, as spoken words.");
        body.putObject("voice").put("provider", elevenLabs ? "11labs" : "openai")
                .put("voiceId", elevenLabs ? ELEVENLABS_VOICE : OPENAI_VOICE);
        body.putArray("clientMessages").add("transcript").add("speech-update").add("user-interrupted").add("hang");
        for (JsonNode assistant : list("/assistant?limit=1000")) {
            if (NAME.equals(assistant.path("name").asText())) {
                return send("PATCH", "/assistant/" + assistant.path("id").asText(), body).path("id").asText();
            }
        }
        return send("POST", "/assistant", body).path("id").asText();
    }

    private List<JsonNode> list(String path) throws Stopped, InterruptedException {
        List<JsonNode> items = new ArrayList<>();
        send("GET", path, null).forEach(items::add);
        return items;
    }

    /** One request through the gateway with the API key; the answer's JSON, or Stopped saying what it answered. */
    private JsonNode send(String method, String path, JsonNode body) throws Stopped, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + apiKey)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body.toString()));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> answer;
        try {
            answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new Stopped(method + " " + path.replaceFirst("\\?.*", "") + " did not answer: " + e.getMessage());
        }
        JsonNode json;
        try {
            json = answer.body().isEmpty() ? JSON.missingNode() : JSON.readTree(answer.body());
        } catch (IOException e) {
            json = JSON.missingNode();
        }
        if (answer.statusCode() >= 300) {
            JsonNode message = json.path("message");
            throw new Stopped(method + " " + path.replaceFirst("\\?.*", "") + " answered " + answer.statusCode() + ": "
                    + (message.isArray() ? message.toString() : message.asText(answer.body())));
        }
        return json;
    }
}
