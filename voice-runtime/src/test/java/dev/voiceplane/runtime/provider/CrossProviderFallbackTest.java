package dev.voiceplane.runtime.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.fake.FakeAnthropic;
import dev.voiceplane.runtime.fake.FakeGemini;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.provider.anthropic.AnthropicChat;
import dev.voiceplane.runtime.provider.google.GeminiChat;
import dev.voiceplane.runtime.provider.openai.OpenAiChat;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A fallback chain across model providers: {@link FallbackModel} with an OpenAI model first and an Anthropic or Gemini
 * model next, each the real provider class against its fake. When the first fails before saying anything, the same
 * request (the context, the tools, the settings) goes to the next provider in its own format, with the next model's
 * id, and the caller hears the second's answer and its usage.
 */
class CrossProviderFallbackTest {

    private final Vertx vertx = Vertx.vertx();
    private final EventLoopHttpClients http = new EventLoopHttpClients(vertx, new HttpClientOptions(),
            new PoolOptions());
    private final ObjectMapper json = new ObjectMapper();
    private final FakeOpenAi openai = new FakeOpenAi("sk-openai");
    private final FakeAnthropic anthropic = new FakeAnthropic("sk-ant");
    private final FakeGemini gemini = new FakeGemini("AIza-google");
    private final List<String> fellBack = new CopyOnWriteArrayList<>();

    private final ChatRequest request;

    CrossProviderFallbackTest() throws Exception {
        request = new ChatRequest("gpt-4o-mini", List.of(
                new ChatMessage("system", "You answer for a cafe."),
                new ChatMessage("assistant", "Hello, cafe."),
                new ChatMessage("user", "When do you open?")),
                List.of(new ToolSpec("endCall", "Ends the call.", json.readTree("{\"type\":\"object\","
                        + "\"properties\":{\"reason\":{\"type\":\"string\"}}}"))), 0.4, 120);
    }

    @AfterEach
    void close() throws Exception {
        openai.close();
        anthropic.close();
        gemini.close();
        http.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private OpenAiChat openAi(long firstTokenMillis) {
        return new OpenAiChat(vertx, http, json, "openai", new OpenAiChat.Endpoint(openai.baseUrl()
                + "/chat/completions", Map.of("Authorization", "Bearer sk-openai")), 5000, firstTokenMillis);
    }

    /** What the caller heard: the text, then the usage; or the failure. */
    private String ask(LanguageModel model) throws Exception {
        CompletableFuture<String> answer = new CompletableFuture<>();
        StringBuilder text = new StringBuilder();
        model.stream(request, new LanguageModel.Listener() {
            @Override
            public void text(String delta) {
                text.append(delta);
            }

            @Override
            public void done(long promptTokens, long completionTokens) {
                answer.complete(text + " [" + promptTokens + "+" + completionTokens + "]");
            }

            @Override
            public void failed(ProviderError error) {
                answer.complete("failed: " + error);
            }
        });
        return answer.get(20, TimeUnit.SECONDS);
    }

    private FallbackModel chain(FallbackModel.Choice... choices) {
        return new FallbackModel(List.of(choices), (choice, error) -> fellBack.add(choice.provider() + " "
                + choice.modelId() + ": " + error.kind().label()));
    }

    @Test
    void anOpenAiModelThatFailsHandsTheSameRequestToAnthropic() throws Exception {
        openai.forModel("gpt-4o-mini", FakeOpenAi.Reply.error(503, "The engine is currently overloaded."));
        anthropic.script(request -> FakeAnthropic.Reply.text("We open at nine."));
        LanguageModel model = chain(
                new FallbackModel.Choice("openai", openAi(5000), "gpt-4o-mini"),
                new FallbackModel.Choice("anthropic", new AnthropicChat(vertx, http, json, "anthropic",
                        anthropic.baseUrl() + "/v1/messages", "sk-ant", 5000, 5000), "claude-haiku-4-5"));

        String heard = ask(model);
        FakeAnthropic.Exchange asked = anthropic.exchanges().get(0);
        assertEquals("We open at nine. [" + asked.inputTokens() + "+" + asked.outputTokens() + "]", heard,
                "the caller hears Anthropic's answer and its usage");
        assertEquals(List.of("openai gpt-4o-mini: unavailable"), fellBack);
        assertEquals(1, openai.requestCount(), "OpenAI was asked first");
        JsonObject body = asked.body();
        assertEquals("claude-haiku-4-5", body.getString("model"), "the next choice's model id");
        assertEquals("You answer for a cafe.", body.getString("system"));
        assertEquals("When do you open?", FakeAnthropic.lastUserText(body), "the same context");
        assertEquals("Hello, cafe.", FakeAnthropic.blocks(body.getJsonArray("messages").getJsonObject(1)).get(0)
                .getString("text"));
        assertEquals("endCall", body.getJsonArray("tools").getJsonObject(0).getString("name"), "the same tools");
        assertEquals(0.4, body.getDouble("temperature"), "the same settings");
        assertEquals(120, body.getInteger("max_tokens"));
    }

    @Test
    void anOpenAiModelThatNeverAnswersHandsTheSameRequestToGemini() throws Exception {
        openai.forModel("gpt-4o-mini", FakeOpenAi.Reply.hang());
        gemini.script(request -> FakeGemini.Reply.text("We open at nine."));
        LanguageModel model = chain(
                new FallbackModel.Choice("openai", openAi(300), "gpt-4o-mini"),
                new FallbackModel.Choice("google", new GeminiChat(vertx, http, json, "google", gemini.baseUrl(),
                        "AIza-google", 5000, 5000), "gemini-2.5-flash"));

        String heard = ask(model);
        FakeGemini.Exchange asked = gemini.exchanges().get(0);
        assertEquals("We open at nine. [" + asked.promptTokens() + "+" + asked.candidatesTokens() + "]", heard);
        assertEquals(List.of("openai gpt-4o-mini: timeout"), fellBack);
        assertEquals("gemini-2.5-flash", asked.model(), "the next choice's model id");
        assertEquals("When do you open?", FakeGemini.lastUserText(asked.body()), "the same context");
        assertEquals("endCall", asked.body().getJsonArray("tools").getJsonObject(0).getJsonArray("functionDeclarations")
                .getJsonObject(0).getString("name"), "the same tools");
        assertEquals(120, asked.body().getJsonObject("generationConfig").getInteger("maxOutputTokens"));
    }
}
