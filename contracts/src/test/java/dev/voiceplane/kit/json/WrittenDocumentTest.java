package dev.voiceplane.kit.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.NameTransformer;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.contracts.assistant.AssistantSecrets;
import dev.voiceplane.kit.crypto.SecretBox;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * What a write answers from the text it stored ({@link WrittenDocument}) is byte for byte what writing the typed
 * value answers, and what it stores has its secrets sealed (and is the very same text when there are none).
 */
class WrittenDocumentTest {

    private final ObjectMapper json = JsonConventions.apply(new ObjectMapper());
    private final SecretBox box = SecretBox.fromKeysetJson(SecretBox.generateKeysetJson());

    private static final String WITH_SECRETS = """
            {"name":"Zoë 😀 \\"q\\" \\u0007","silenceTimeoutSeconds":30.50,"maxDurationSeconds":1e2,
             "serverUrl":"https://hooks.example.com/e","serverUrlSecret":"whsec-server",
             "model":{"provider":"openai","model":"gpt-4o","temperature":0.7,"tools":[{"type":"function",
               "function":{"name":"book"},"server":{"url":"https://hooks.example.com/t","secret":"whsec-tool"}}]},
             "metadata":{"a":[1,2.50,-0.0,true,null,"x"],"big":12345678901234567890.5}}""";

    private static final String WITHOUT_SECRETS = """
            {"name":"plain","model":{"provider":"openai","model":"gpt-4o"},"metadata":{}}""";

    @Test
    void theAnswerIsWhatWritingTheTypedValueGives() throws IOException {
        for (String body : new String[] {WITH_SECRETS, WITHOUT_SECRETS, "{}"}) {
            AssistantBody value = json.readValue(body, AssistantBody.class);
            WrittenDocument written = WrittenDocument.of(json, value, AssistantSecrets.ASSISTANT, box, "assistant:o:1");

            assertEquals(answer(generator -> typedFields(generator, value)),
                    answer(generator -> assertTrue(written.writeFields(generator))), body);
        }
    }

    @Test
    void secretsAreSealedInTheStoredTextOnly() throws IOException {
        AssistantBody value = json.readValue(WITH_SECRETS, AssistantBody.class);
        WrittenDocument written = WrittenDocument.of(json, value, AssistantSecrets.ASSISTANT, box, "assistant:o:1");

        ObjectNode stored = (ObjectNode) json.readTree(written.stored());
        assertTrue(stored.get("serverUrlSecret").asText().startsWith("sealed:v1:"));
        assertTrue(stored.at("/model/tools/0/server/secret").asText().startsWith("sealed:v1:"));
        assertFalse(written.stored().contains("whsec-"));
        assertEquals(json.readTree(json.writeValueAsString(value)),
                AssistantSecrets.ASSISTANT.open(stored, box, "assistant:o:1"));
    }

    @Test
    void withoutSecretsTheStoredTextIsTheWrittenValue() throws IOException {
        AssistantBody value = json.readValue(WITHOUT_SECRETS, AssistantBody.class);

        assertEquals(new String(json.writeValueAsBytes(value), StandardCharsets.UTF_8),
                WrittenDocument.of(json, value, AssistantSecrets.ASSISTANT, box, "assistant:o:1").stored());
    }

    @Test
    void aGeneratorThatCannotTakeTextAsItIsIsLeftToTheCaller() throws IOException {
        AssistantBody value = json.readValue(WITHOUT_SECRETS, AssistantBody.class);
        WrittenDocument written = WrittenDocument.of(json, value, AssistantSecrets.ASSISTANT, box, "assistant:o:1");

        try (TokenBuffer buffer = new TokenBuffer(json, false)) {
            buffer.writeStartObject();
            assertFalse(written.writeFields(buffer));
        }
    }

    /** The value's fields as writing it gives them, inside an object being written (as AssistantView does). */
    private void typedFields(JsonGenerator generator, AssistantBody value) throws IOException {
        SerializerProvider provider = json.getSerializerProviderInstance();
        provider.findValueSerializer(AssistantBody.class).unwrappingSerializer(NameTransformer.NOP)
                .serialize(value, generator, provider);
    }

    private interface Fields {
        void write(JsonGenerator generator) throws IOException;
    }

    /** An object with one field of its own, then the value's fields, as an answer writes them (UTF-8 bytes). */
    private String answer(Fields fields) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator generator = json.getFactory().createGenerator(out)) {
            generator.writeStartObject();
            generator.writeStringField("id", "1");
            fields.write(generator);
            generator.writeEndObject();
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
