package dev.voiceplane.runtime;

/**
 * The assistant the runtime's tests hand to a call, as call-service's attach answer carries it: by default on the
 * fake providers ({@link FakeProviders}: Deepgram's transcriber, OpenAI's {@code gpt-4o-mini} answering for a cafe,
 * ElevenLabs' voice {@code rachel}) with no response or LLM request delay; a test replaces a part or leaves it out
 * (null) and adds its own members. The JSON is written in one order, transcriber, model, voice, the two delays, then
 * what the test added, so that a test may still edit the text it gets (a delay, the model's name).
 */
public final class AssistantJson {

    /** Deepgram's transcriber (the fake's), in English. */
    public static final String TRANSCRIBER = "{\"provider\":\"deepgram\",\"language\":\"en\"}";
    /** ElevenLabs' voice {@code rachel} (the fake's), speaking from 10 characters on. */
    public static final String VOICE = "{\"provider\":\"11labs\",\"voiceId\":\"rachel\",\"inputMinCharacters\":10}";

    private String transcriber = TRANSCRIBER;
    private String model = cafeModel("");
    private String voice = VOICE;
    private final StringBuilder members = new StringBuilder();

    private AssistantJson() {
    }

    /** The assistant on the fake providers. */
    public static AssistantJson onFakes() {
        return new AssistantJson();
    }

    /**
     * The assistant of the conversation's own tests, whose parts are scripted in the test itself: no transcriber, the
     * model {@code main} told "Be brief.", the voice {@code v} speaking from the first character, and the caller
     * speaks first.
     */
    public static AssistantJson scripted() {
        return new AssistantJson().transcriber(null)
                .model("{\"provider\":\"openai\",\"model\":\"main\","
                        + "\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"}]}")
                .voice("{\"provider\":\"11labs\",\"voiceId\":\"v\",\"inputMinCharacters\":1}")
                .with(",\"firstMessageMode\":\"assistant-waits-for-user\"");
    }

    /** OpenAI's {@code gpt-4o-mini} with the system message "You answer for a cafe.", and {@code more} members. */
    public static String cafeModel(String more) {
        return "{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\","
                + "\"messages\":[{\"role\":\"system\",\"content\":\"You answer for a cafe.\"}]" + more + "}";
    }

    /** The transcriber object's JSON; null: none. */
    public AssistantJson transcriber(String json) {
        transcriber = json;
        return this;
    }

    /** The model object's JSON; null: none. */
    public AssistantJson model(String json) {
        model = json;
        return this;
    }

    /** The voice object's JSON; null: none. */
    public AssistantJson voice(String json) {
        voice = json;
        return this;
    }

    /** More members, written as JSON after the others, each beginning with a comma ({@code ,"firstMessage":"Hi"}). */
    public AssistantJson with(String more) {
        members.append(more);
        return this;
    }

    public String json() {
        StringBuilder json = new StringBuilder("{");
        part(json, "transcriber", transcriber);
        part(json, "model", model);
        part(json, "voice", voice);
        return json.append("\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0").append(members).append('}')
                .toString();
    }

    private static void part(StringBuilder json, String name, String value) {
        if (value != null) {
            json.append('"').append(name).append("\":").append(value).append(',');
        }
    }

    @Override
    public String toString() {
        return json();
    }
}
