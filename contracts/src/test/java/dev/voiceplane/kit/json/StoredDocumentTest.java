package dev.voiceplane.kit.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.contracts.assistant.SquadBody;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A stored document answered as it is ({@link StoredJson#asStored}) must be exactly what binding it to its type
 * and writing that again answers: same fields, same order, same numbers. Documents that would not bind exactly
 * are not answered as stored (the caller then takes {@link StoredJson#read}'s rule).
 */
class StoredDocumentTest {

    private final ObjectMapper json = JsonConventions.apply(new ObjectMapper());
    private final StoredJson stored = new StoredJson(json);

    /** Keys in another order than the type's (as PostgreSQL's jsonb gives them back), every kind of value. */
    static final String ASSISTANT = """
            {"name":"Support","voice":{"speed":1.50,"voiceId":"ava","provider":"11labs"},
             "model":{"tools":[{"type":"function","server":{"url":"https://example.com/t","secret":"s3"},
               "function":{"name":"look","parameters":{"type":"object","properties":{"b":{"type":"string"},"a":null}}},
               "messages":[{"type":"request-start","conditions":[{"param":"p","value":[1,2.50,null],"operator":"eq"}]}]}],
               "model":"gpt-4o","provider":"openai","messages":[{"role":"system","content":"Hi"}],"temperature":0.7,
               "maxTokens":250,"knowledgeBase":{"topK":3,"fileIds":["f1"],"provider":"canonical"}},
             "metadata":{"z":1,"a":{"n":null,"big":123456789012345678901234567890,"x":0.0000001}},
             "serverUrl":"https://example.com/hook","serverUrlSecret":"secret","recordingEnabled":true,
             "clientMessages":["transcript","hang"],"maxDurationSeconds":600,"silenceTimeoutSeconds":30.0,
             "transcriber":{"model":"nova-2","language":"en","provider":"deepgram","smartFormat":false,"keywords":[]},
             "analysisPlan":{"structuredDataSchema":{"type":"object","properties":{"k":{"type":"number"}}}},
             "voicemailDetection":{"enabled":true,"machineDetectionTimeout":30},
             "unknownField":{"skipped":true},"endCallPhrases":["bye"],"firstMessage":"Hello \\u2028 \\"there\\""}
            """;

    static final String SQUAD = """
            {"members":[{"assistantId":"a1","assistantOverrides":{"variableValues":{"n":"v"},"name":"o"}},
              {"assistant":{"model":{"model":"m","provider":"openai"},"name":"inline"},
               "assistantDestinations":[{"type":"assistant","assistantName":"inline","message":"m"}]}]}
            """;

    @Test
    void anAnswerStoredWithItsDocumentIsWrittenAsItIsEvenWhereTextCannotBeCopied() throws Exception {
        String fields = "\"name\":\"Support \\u2028\",\"metadata\":{\"big\":123456789012345678901234567890,\"x\":0.0000001}";
        StoredDocument answered = stored.answered(fields);
        JsonSerializable wrapped = new Fields("i", answered);
        assertEquals("{\"id\":\"i\"," + fields + "}", json.writeValueAsString(wrapped));
        // A pretty printer, a token buffer: the same JSON, field by field.
        assertEquals(json.readTree("{\"id\":\"i\"," + fields + "}"),
                json.readTree(json.writerWithDefaultPrettyPrinter().writeValueAsString(wrapped)));
        assertEquals(json.readTree("{\"id\":\"i\"," + fields + "}"), json.valueToTree(wrapped));
    }

    @Test
    void aTypesFormChangesWithWhatItsAnswersHoldAndInWhatOrder() {
        assertEquals(stored.form(AssistantBody.class), new StoredJson(json).form(AssistantBody.class));
        assertTrue(stored.form(AssistantBody.class) != stored.form(SquadBody.class));
        assertTrue(stored.form(First.class) != stored.form(Second.class), "the same fields in another order");
        assertTrue(stored.form(First.class) != stored.form(Third.class), "one more field");
    }

    record First(String a, String b) {
    }

    record Second(String b, String a) {
    }

    record Third(String a, String b, Boolean c) {
    }

    @Test
    void anAssistantAnsweredAsStoredIsWhatBindingAndWritingAnswers() throws Exception {
        assertSameAsBound(ASSISTANT, AssistantBody.class);
    }

    @Test
    void aSquadAnsweredAsStoredIsWhatBindingAndWritingAnswers() throws Exception {
        assertSameAsBound(SQUAD, SquadBody.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"name\":7}",
            "{\"name\":null}",
            "{\"recordingEnabled\":\"true\"}",
            "{\"maxDurationSeconds\":\"600\"}",
            "{\"metadata\":[1]}",
            "{\"clientMessages\":[\"hang\",null]}",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"async\":1}]}}",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":{\"type\":\"function\"}}}",
            "{\"model\":\"gpt-4o\"}"})
    void aDocumentThatDoesNotBindExactlyIsNotAnsweredAsStored(String document) throws Exception {
        assertTrue(stored.asStored((ObjectNode) json.readTree(document), AssistantBody.class).isEmpty(), document);
    }

    private void assertSameAsBound(String document, Class<?> type) throws Exception {
        ObjectNode tree = (ObjectNode) json.readTree(document);
        String bound = json.writeValueAsString(json.treeToValue(tree, type));
        StoredDocument verbatim = stored.asStored(tree, type).orElseThrow();
        assertEquals(bound, json.writeValueAsString(new Fields(verbatim)));
    }

    /**
     * The stored document's fields in an object of their own, as a view writes them after its common fields; with
     * an {@code id} (a common field) first, unless null.
     */
    record Fields(String id, StoredDocument document) implements JsonSerializable {

        Fields(StoredDocument document) {
            this(null, document);
        }

        @Override
        public void serialize(JsonGenerator generator, SerializerProvider provider) throws IOException {
            generator.writeStartObject();
            if (id != null) {
                generator.writeStringField("id", id);
            }
            document.writeFields(generator, provider);
            generator.writeEndObject();
        }

        @Override
        public void serializeWithType(JsonGenerator generator, SerializerProvider provider, TypeSerializer types)
                throws IOException {
            serialize(generator, provider);
        }
    }
}
