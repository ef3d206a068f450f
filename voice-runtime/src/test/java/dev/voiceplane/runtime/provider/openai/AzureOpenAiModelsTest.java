package dev.voiceplane.runtime.provider.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ChatRequest;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderFailure;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where Azure OpenAI's requests go: the deployment URL from the operator's variable or the organisation's credential,
 * the API version, the {@code api-key} header, a deployment per model id; against {@link FakeOpenAi} on Azure's path.
 */
class AzureOpenAiModelsTest {

    private static final String KEY = "aoai-test-key";

    private final Vertx vertx = Vertx.vertx();
    private final FakeOpenAi azure = new FakeOpenAi("not-this-key").azureKey(KEY);

    @AfterEach
    void close() throws Exception {
        azure.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private AzureOpenAiModels models(Map<String, String> config) {
        return new AzureOpenAiModels(new ProviderClients(vertx, new SmallRyeConfigBuilder().withDefaultValues(config)
                .build(), new ObjectMapper(), Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5),
                Duration.ofSeconds(5)));
    }

    private static ModelSettings settings(String model, List<String> fallbacks) {
        return new ModelSettings("azure-openai", model, fallbacks, null, null, null, List.of(), null);
    }

    private String fakeEndpoint() {
        return "http://127.0.0.1:" + azure.port();
    }

    /** The text the model answers to "Hi", or the failure's kind and detail. */
    private static String ask(LanguageModel model, String deployment) throws Exception {
        CompletableFuture<String> answer = new CompletableFuture<>();
        StringBuilder text = new StringBuilder();
        model.stream(new ChatRequest(deployment, List.of(new ChatMessage("user", "Hi")), List.of(), null, null),
                new LanguageModel.Listener() {
                    @Override
                    public void text(String delta) {
                        text.append(delta);
                    }

                    @Override
                    public void done(long promptTokens, long completionTokens) {
                        answer.complete(text.toString());
                    }

                    @Override
                    public void failed(ProviderError error) {
                        answer.complete(error.kind().label() + ": " + error.detail());
                    }
                });
        return answer.get(10, TimeUnit.SECONDS);
    }

    @Test
    void theOrganisationsEndpointIsAskedAtTheAssistantsDeploymentWithItsKey() throws Exception {
        LanguageModel model = models(Map.of()).open(settings("gpt-4o-prod", List.of()),
                new Credential(KEY, Map.of("openAIEndpoint", fakeEndpoint() + "/")));
        assertEquals("You said: Hi.", ask(model, "gpt-4o-prod"));
        assertEquals("gpt-4o-prod", azure.lastDeployment());
        assertEquals(AzureOpenAiModels.DEFAULT_API_VERSION, azure.lastApiVersion());
        assertEquals(KEY, azure.lastApiKeyHeader());
        assertNull(azure.lastAuthorization(), "Azure's key goes in api-key, not Authorization");

        assertEquals("You said: Hi.", ask(model, "gpt-4o-mini-fallback"), "a fallback model is another deployment");
        assertEquals("gpt-4o-mini-fallback", azure.lastDeployment());
    }

    @Test
    void theOperatorsUrlAndVersionWinOverTheCredentials() throws Exception {
        LanguageModel model = models(Map.of("VOICE_AZURE_OPENAI_URL", fakeEndpoint(),
                "VOICE_AZURE_OPENAI_API_VERSION", "2025-04-01-preview")).open(settings("gpt-4o-prod", List.of()),
                new Credential(KEY, Map.of("openAIEndpoint", "https://elsewhere.invalid")));
        assertEquals("You said: Hi.", ask(model, "gpt-4o-prod"));
        assertEquals("2025-04-01-preview", azure.lastApiVersion());
    }

    @Test
    void aKeyAzureRefusesIsAnAuthFailure() throws Exception {
        LanguageModel model = models(Map.of("VOICE_AZURE_OPENAI_URL", fakeEndpoint()))
                .open(settings("gpt-4o-prod", List.of()), Credential.key("revoked"));
        String failure = ask(model, "gpt-4o-prod");
        assertTrue(failure.startsWith("auth: answered 401"), failure);
        assertEquals("revoked", azure.lastApiKeyHeader());
    }

    @Test
    void withoutAnEndpointTheCallCannotStart() {
        ProviderFailure failure = assertThrows(ProviderFailure.class, () -> models(Map.of())
                .open(settings("gpt-4o-prod", List.of()), Credential.key(KEY)));
        assertEquals("config", failure.kind());
        assertEquals("azure-openai", failure.provider());
        assertEquals("the organisation's azure-openai credential has no openAIEndpoint and VOICE_AZURE_OPENAI_URL"
                + " is not set", failure.getMessage());
    }

    @Test
    void aDeploymentNameThatIsNotOneIsRefusedBeforeTheCall() {
        AzureOpenAiModels models = models(Map.of());
        assertEquals(Optional.of("needs model.model (the name of an Azure OpenAI deployment)"),
                models.refused(settings(null, List.of())));
        assertEquals(Optional.of("takes deployment names (letters, digits, '.', '-', '_'), not ../admin"),
                models.refused(settings("gpt-4o", List.of("../admin"))));
        assertEquals(Optional.empty(), models.refused(settings("gpt-4o_prod.v2", List.of("mini-1"))));
    }
}
