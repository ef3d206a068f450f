package dev.voiceplane.kit.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.contracts.assistant.AssistantSecrets;
import dev.voiceplane.contracts.assistant.SquadBody;
import dev.voiceplane.kit.crypto.SealedFields;
import dev.voiceplane.kit.crypto.SecretBox;
import dev.voiceplane.kit.testing.TestEnvironment;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A stored document answered from its jsonb text ({@link StoredJson#asStored(byte[], Class, List,
 * java.util.function.UnaryOperator)}) must answer exactly what the tree answers (parse, open the secrets,
 * {@link StoredJson#asStored(ObjectNode, Class)}): same bytes, and no answer from the text where the tree has none.
 * The text is what PostgreSQL gives back for the document (its jsonb output: keys shortest first, blanks, its own
 * escapes), for hand-written documents and for random ones with every kind of string, number and free-form JSON.
 */
class StoredTextTest {

    private static final ObjectMapper JSON = JsonConventions.apply(new ObjectMapper());
    private static final StoredJson STORED = new StoredJson(JSON);
    private static final SecretBox BOX = SecretBox.fromKeysetJson(SecretBox.generateKeysetJson());
    private static final String CONTEXT = "assistant:org:1";

    private static Connection database;

    /** The documents of {@link StoredDocumentTest}. */
    private static final String ASSISTANT = StoredDocumentTest.ASSISTANT;
    private static final String SQUAD = StoredDocumentTest.SQUAD;

    private static final List<String> NOT_BINDING = List.of("{\"name\":7}",
            "{\"name\":null}",
            "{\"recordingEnabled\":\"true\"}",
            "{\"maxDurationSeconds\":\"600\"}",
            "{\"metadata\":[1]}",
            "{\"clientMessages\":[\"hang\",null]}",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"async\":1}]}}",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":{\"type\":\"function\"}}}",
            "{\"model\":\"gpt-4o\"}");

    @BeforeAll
    static void connect() throws Exception {
        Map<String, String> config = TestEnvironment.database();
        database = DriverManager.getConnection(config.get("quarkus.datasource.jdbc.url"),
                config.get("quarkus.datasource.username"), config.get("quarkus.datasource.password"));
    }

    @Test
    void theHandWrittenDocumentsAnswerWhatTheTreeAnswers() throws Exception {
        List<String> documents = List.of(ASSISTANT, """
                {"name":"escapes \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0001 \\u001f \\u007f \\u00e9 \\u2028 \\ud83d\\ude00 é 😀",
                 "metadata":{"k \\n\\u0002":["\\"", {"": {}}, [], [[]], -1.5, 0, 0.0, 1e3, 12345678901234567890123,
                   true, false, null, "\\\\/"], "deep":{"a":{"b":{"c":[{"d":"e"}]}}}},
                 "endCallPhrases":[], "clientMessages":["transcript"], "model":{"provider":"openai","model":"m",
                 "tools":[], "messages":[]}, "unknown":[1, {"x": "\\u0003"}], "voice":{"provider":"p","voiceId":"v",
                 "speed":-0.5}}
                """, "{}", "{\"unknown\":null}", "{\"metadata\":{}}");
        for (String document : documents) {
            assertSameAnswer(jsonb(document), AssistantBody.class, AssistantSecrets.ASSISTANT, true);
        }
        assertSameAnswer(jsonb(SQUAD), SquadBody.class, AssistantSecrets.SQUAD, true);
    }

    @Test
    void documentsThatDoNotReadAsTheirTypeAreNotAnsweredFromTheText() throws Exception {
        for (String document : NOT_BINDING) {
            assertSameAnswer(jsonb(document), AssistantBody.class, AssistantSecrets.ASSISTANT, false);
        }
    }

    @Test
    void secretsAreOpenedAndOnesThatDoNotOpenAreLeftOut() throws Exception {
        ObjectNode document = (ObjectNode) JSON.readTree(ASSISTANT);
        String sealed = JSON.writeValueAsString(AssistantSecrets.ASSISTANT.seal(document, BOX, CONTEXT));
        assertFalse(sealed.contains("\"s3\"") || sealed.contains("\"secret\"}"), sealed);
        byte[] text = jsonb(sealed);
        String answer = assertSameAnswer(text, AssistantBody.class, AssistantSecrets.ASSISTANT, true);
        assertTrue(answer.contains("\"serverUrlSecret\":\"secret\"") && answer.contains("\"secret\":\"s3\""), answer);

        // Sealed for another row: both secrets are left out, the rest answered.
        String elsewhere = new String(text, StandardCharsets.UTF_8);
        String moved = assertSameAnswer(text, AssistantBody.class, AssistantSecrets.ASSISTANT, true,
                "assistant:org:2");
        assertFalse(moved.contains("serverUrlSecret") || moved.contains("\"secret\"") || moved.contains("sealed:"),
                moved + " from " + elsewhere);

        ObjectNode squad = (ObjectNode) JSON.readTree(SQUAD);
        ((ObjectNode) squad.withArray("members").get(0).get("assistantOverrides")).put("serverUrlSecret", "over");
        ((ObjectNode) squad.withArray("members").get(1).get("assistant")).put("serverUrlSecret", "inline");
        String sealedSquad = JSON.writeValueAsString(AssistantSecrets.SQUAD.seal(squad, BOX, CONTEXT));
        String squadAnswer = assertSameAnswer(jsonb(sealedSquad), SquadBody.class, AssistantSecrets.SQUAD, true);
        assertTrue(squadAnswer.contains("\"serverUrlSecret\":\"over\"")
                && squadAnswer.contains("\"serverUrlSecret\":\"inline\""), squadAnswer);
    }

    @Test
    void randomDocumentsAnswerWhatTheTreeAnswers() throws Exception {
        Random random = new Random(8);
        List<String> documents = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            documents.add(JSON.writeValueAsString(randomAssistant(random, i % 10 == 9)));
        }
        int fromText = 0;
        for (byte[] text : jsonb(documents)) {
            if (assertSameAnswer(text, AssistantBody.class, AssistantSecrets.ASSISTANT, null) != null) {
                fromText++;
            }
        }
        assertTrue(fromText >= 300, "answered from the text: " + fromText);
    }

    @Test
    void aLargeDocumentIsWrittenWholeAcrossTheGeneratorsBuffer() throws Exception {
        ObjectNode document = JsonNodeFactory.instance.objectNode();
        ObjectNode metadata = document.putObject("metadata");
        for (int i = 0; i < 2_000; i++) {
            metadata.put("key " + i, "välue \u0001 " + i);
        }
        document.put("name", "x".repeat(20_000));
        assertSameAnswer(jsonb(JSON.writeValueAsString(document)), AssistantBody.class, AssistantSecrets.ASSISTANT,
                true);
    }

    private static String assertSameAnswer(byte[] text, Class<?> type, SealedFields secrets, Boolean expected)
            throws Exception {
        return assertSameAnswer(text, type, secrets, expected, CONTEXT);
    }

    /** Asserts both ways agree (as bytes and as a String); returns the answer, null when there is none. */
    private static String assertSameAnswer(byte[] text, Class<?> type, SealedFields secrets, Boolean expected,
            String context) throws Exception {
        String document = new String(text, StandardCharsets.UTF_8);
        ObjectNode tree = secrets.open((ObjectNode) STORED.parse(document), BOX, context);
        Optional<StoredDocument> fromTree = STORED.asStored(tree, type);
        Optional<StoredDocument> fromText = STORED.asStored(text, type, secrets.paths(),
                value -> secrets.open(value, BOX, context));
        assertEquals(fromTree.isPresent(), fromText.isPresent(), document);
        if (expected != null) {
            assertEquals(expected, fromText.isPresent(), document);
        }
        if (fromTree.isEmpty()) {
            return null;
        }
        byte[] expectedBytes = JSON.writeValueAsBytes(new StoredDocumentTest.Fields(fromTree.get()));
        assertEquals(new String(expectedBytes, StandardCharsets.UTF_8),
                new String(JSON.writeValueAsBytes(new StoredDocumentTest.Fields(fromText.get())), StandardCharsets.UTF_8), document);
        assertArrayEquals(expectedBytes, JSON.writeValueAsBytes(new StoredDocumentTest.Fields(fromText.get())), document);
        assertEquals(JSON.writeValueAsString(new StoredDocumentTest.Fields(fromTree.get())),
                JSON.writeValueAsString(new StoredDocumentTest.Fields(fromText.get())), document);
        return new String(expectedBytes, StandardCharsets.UTF_8);
    }

    private static byte[] jsonb(String document) throws Exception {
        return jsonb(List.of(document)).getFirst();
    }

    /** What PostgreSQL gives back for each document stored as jsonb, as the driver hands over its bytes. */
    private static List<byte[]> jsonb(List<String> documents) throws Exception {
        List<byte[]> texts = new ArrayList<>();
        try (PreparedStatement select = database.prepareStatement(
                "select d::jsonb from unnest(?::text[]) with ordinality as t(d, n) order by n")) {
            select.setArray(1, database.createArrayOf("text", documents.toArray()));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    texts.add(rows.getString(1).getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        assertEquals(documents.size(), texts.size());
        return texts;
    }

    private static ObjectNode randomAssistant(Random random, boolean maybeWrong) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode document = nodes.objectNode();
        if (random.nextBoolean()) {
            document.put("name", randomText(random));
        }
        if (random.nextBoolean()) {
            document.put("firstMessage", randomText(random));
        }
        if (random.nextBoolean()) {
            document.put("recordingEnabled", random.nextBoolean());
        }
        if (random.nextBoolean()) {
            document.put("maxDurationSeconds", randomNumber(random));
        }
        if (random.nextBoolean()) {
            document.set("metadata", randomTree(random, 3, true));
        }
        if (random.nextBoolean()) {
            ArrayNode phrases = document.putArray("endCallPhrases");
            for (int i = random.nextInt(4); i > 0; i--) {
                phrases.add(randomText(random));
            }
        }
        if (random.nextBoolean()) {
            ObjectNode voice = document.putObject("voice").put("provider", randomText(random))
                    .put("voiceId", randomText(random));
            voice.put("speed", randomNumber(random));
        }
        if (random.nextBoolean()) {
            ObjectNode model = document.putObject("model").put("provider", "openai").put("model", randomText(random));
            model.putArray("messages").addObject().put("role", "system").put("content", randomText(random));
            ObjectNode tool = model.putArray("tools").addObject().put("type", "function");
            tool.putObject("function").put("name", randomText(random)).set("parameters", randomTree(random, 2, true));
            tool.putObject("server").put("url", "https://example.com/" + random.nextInt(100))
                    .put("secret", randomText(random));
        }
        if (random.nextBoolean()) {
            document.put("serverUrlSecret", randomText(random));
        }
        if (random.nextBoolean()) {
            document.set(randomText(random), randomTree(random, 2, false));
        }
        if (maybeWrong) {
            String[] fields = {"name", "recordingEnabled", "maxDurationSeconds", "metadata", "endCallPhrases", "voice"};
            document.set(fields[random.nextInt(fields.length)], randomTree(random, 1, false));
        }
        return document;
    }

    private static JsonNode randomTree(Random random, int depth, boolean object) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        int pick = object ? 0 : random.nextInt(depth > 0 ? 8 : 6);
        return switch (pick) {
            case 0 -> {
                ObjectNode node = nodes.objectNode();
                for (int i = random.nextInt(depth > 0 ? 5 : 1); i > 0; i--) {
                    node.set(randomText(random), depth > 0 ? randomTree(random, depth - 1, false) : nodes.nullNode());
                }
                yield node;
            }
            case 1 -> nodes.textNode(randomText(random));
            case 2 -> nodes.numberNode(randomNumber(random));
            case 3 -> nodes.booleanNode(random.nextBoolean());
            case 4 -> nodes.nullNode();
            case 5 -> nodes.numberNode(new BigInteger(random.nextInt(120) + 1, random).negate());
            default -> {
                ArrayNode node = nodes.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    node.add(randomTree(random, depth - 1, false));
                }
                yield node;
            }
        };
    }

    private static BigDecimal randomNumber(Random random) {
        BigDecimal number = new BigDecimal(new BigInteger(random.nextInt(70) + 1, random), random.nextInt(30) - 10);
        return random.nextBoolean() ? number.negate() : number;
    }

    /** Text with escapes jsonb writes, characters beyond ASCII and surrogate pairs; never U+0000 (jsonb refuses it). */
    private static String randomText(Random random) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            switch (random.nextInt(8)) {
                case 0 -> text.append((char) (1 + random.nextInt(0x1F)));
                case 1 -> text.append("\"\\/".charAt(random.nextInt(3)));
                case 2 -> text.append((char) (0x80 + random.nextInt(0x780)));
                case 3 -> text.append((char) (0x800 + random.nextInt(0xD000)));
                case 4 -> text.appendCodePoint(0x10000 + random.nextInt(0xFFFFF));
                case 5 -> text.append('\u2028').append('\u007f');
                default -> text.append((char) (' ' + random.nextInt(95)));
            }
        }
        return text.toString();
    }
}
