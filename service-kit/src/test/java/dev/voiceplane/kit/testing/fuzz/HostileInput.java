package dev.voiceplane.kit.testing.fuzz;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.json.JsonConventions;
import dev.voiceplane.kit.json.JsonLimits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * The generators of the fuzz suite: hostile ids, query strings, headers and bodies. Every choice is drawn from one
 * seeded {@link Random}, so that a seed replays a run exactly. Atoms (strings, numbers) favour edge cases: empty,
 * control characters, unpaired surrogates, non-BMP characters, extremes and values just over a limit.
 */
final class HostileInput {

    /** Reads answers as the services write them (numbers of any length they store); writes bodies of any depth. */
    private static final ObjectMapper JSON = JsonConventions.apply(new ObjectMapper());

    static {
        JSON.getFactory().setStreamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(100_000).build());
        // Bodies carry numbers as a client may write them (1E+99999), not written out in full.
        JSON.getFactory().disable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
    }
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final List<String> EDGE_TEXTS = List.of("", " ", "\t", "\u0000", "\u001f", "\u007f", "\ud800",
            "\udc00", "\ud83d\ude00", "\uffff", "\ufeff", "\u202e", "null", "true", "0", "-1", "1e1000", "NaN",
            "<script>", "' OR '1'='1", "../../etc/passwd", "%00", "%s%n", "${jndi:ldap://x}", "\\", "\"", "é",
            "a".repeat(41), "x".repeat(10_001));

    private static final List<Long> EDGE_LONGS = List.of(0L, 1L, -1L, 2L, 5L, 6L, 100L, 1000L, 1001L,
            (long) Integer.MAX_VALUE, (long) Integer.MAX_VALUE + 1, (long) Integer.MIN_VALUE - 1, Long.MAX_VALUE,
            Long.MIN_VALUE);

    private static final List<Double> EDGE_DOUBLES = List.of(0.0, -0.0, 0.5, 1.5, 2.0000001, -1.5, Double.MIN_VALUE,
            Double.MAX_VALUE, -Double.MAX_VALUE, 1e-300, 1e300);

    static final List<String> NUMBER_TEXTS = List.of("1e1000", "-1e1000", "0.5e-1000", "1e1001", "1e-1001", "-0",
            "0.0", "1E+2", "1e400", "123456789012345678901234567890", "9223372036854775808", "-9223372036854775809",
            "2147483648", "1.7976931348623157e309", "4.9e-325", "1" + "0".repeat(1500), "0." + "0".repeat(1500) + "1",
            "3" + "3".repeat(2100) + "e-1000", "0e99999", "1.50", "100.000");

    private static final List<String> CONTENT_TYPES = List.of("garbage", ";", "application/json, text/plain",
            "text/plain", "application/json; charset=utf-16", "application/json;charset=\"", "application/xml",
            "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/merge-patch+json",
            "application/json; charset=iso-8859-1", "application/json;;", "APPLICATION/JSON", "*/*", "application/*",
            "application/json; q=0.5", "application/json; a=\"b\\\"c\"", "application/json\u0000", "/json", " ", "a/b/c");

    private static final List<String> ACCEPTS = List.of("text/html", "application/xml", "garbage", ";", "*/*",
            "application/json;q=0", "text/*, application/json;q=0.1");

    private static final List<String> LIST_PARAMETERS = List.of("limit", "createdAtGt", "createdAtLt", "createdAtGe",
            "createdAtLe", "updatedAtGt", "updatedAtLt", "updatedAtGe", "updatedAtLe");

    private static final List<String> BAD_VALUES = List.of("", "-1", "0", "1000", "1001", "99999999999999999999",
            "1e3", "1.5", "abc", " 1", "+1", "0x10", "NaN", "2024-01-01T00:00:00.000Z", "2024-13-45T99:99:99Z",
            "+999999999-12-31T23:59:59.999Z", "-999999999-01-01T00:00:00Z", "2024-01-01", "2024-01-01T00:00:00+25:00",
            "null", "[]", "{}", "%00", "\u0000", "😀", "' OR 1=1 --");

    private HostileInput() {
    }

    static <T> T pick(Random random, List<T> from) {
        return from.get(random.nextInt(from.size()));
    }

    /** A short text: an edge case, printable ASCII, or any UTF-16 units (control characters and lone surrogates too). */
    static String text(Random random) {
        int length = random.nextInt(41);
        StringBuilder text = new StringBuilder(length);
        switch (random.nextInt(4)) {
            case 0 -> {
                return pick(random, EDGE_TEXTS);
            }
            case 1 -> random.ints(length, 0x20, 0x7f).forEach(c -> text.append((char) c));
            case 2 -> random.ints(length, 0, 0x10000).forEach(c -> text.append((char) c));
            default -> random.ints(length, 0, 0x110000).forEach(text::appendCodePoint);
        }
        return text.toString();
    }

    private static long someLong(Random random) {
        return random.nextBoolean() ? pick(random, EDGE_LONGS) : random.nextLong() >> random.nextInt(64);
    }

    private static double someDouble(Random random) {
        return random.nextBoolean() ? pick(random, EDGE_DOUBLES)
                : (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20);
    }

    // ---- ids -----------------------------------------------------------------------------------------------------

    /** Texts that are not the canonical form of an id (some of them name {@code near} in another spelling). */
    static String malformedId(Random random, String near) {
        String id = near != null ? near : UUID.randomUUID().toString();
        return switch (random.nextInt(12)) {
            case 0 -> id.toUpperCase();
            case 1 -> id.replace("-", "");
            case 2 -> "{" + id + "}";
            case 3 -> "1-2-3-4-" + id.substring(24);
            case 4 -> id + " ";
            case 5 -> id.substring(1);
            case 6 -> "+" + id.substring(1);
            case 7 -> "x".repeat(5000);
            case 8 -> pick(random, List.of("..", ".", "%", "%2e%2e", "0", "-1", "null", "undefined", "*", "%00"));
            case 9 -> id.substring(0, 35) + "g";
            default -> text(random);
        };
    }

    /** A path segment: the text percent-encoded as UTF-8 (a few raw escapes are kept to reach the kit's checks). */
    static String segment(Random random, String text) {
        if (random.nextInt(10) == 0) {
            return pick(random, List.of("%C0%AF", "%FF", "%ED%A0%80", "%E0%80%AF", "%2F", "%2e%2e%2Finternal"));
        }
        return encode(text);
    }

    static String encode(String text) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : text.getBytes(UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0) {
                encoded.append(c);
            } else {
                encoded.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return encoded.toString();
    }

    // ---- query ---------------------------------------------------------------------------------------------------

    static String query(Random random, boolean list) {
        int count = random.nextInt(list ? 4 : 2);
        List<String> parameters = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = random.nextInt(4) == 0 ? text(random) : pick(random, LIST_PARAMETERS);
            String value = random.nextInt(3) == 0 ? text(random) : pick(random, BAD_VALUES);
            parameters.add(encode(name) + (random.nextInt(10) == 0 ? "" : "=" + encode(value)));
        }
        if (random.nextInt(15) == 0) {
            parameters.add(pick(random, List.of("limit=%E0%80", "%C3=1", "limit=1&limit=2", "&&", "=", "a=%FF")));
        }
        return String.join("&", parameters);
    }

    // ---- headers -------------------------------------------------------------------------------------------------

    static String contentType(Random random) {
        return random.nextInt(10) < 7 ? "application/json" : pick(random, CONTENT_TYPES);
    }

    /** Extra headers: sometimes a hostile Accept, request id, or a header block over the limit. */
    static Map<String, String> extraHeaders(Random random) {
        return switch (random.nextInt(20)) {
            case 0 -> Map.of("Accept", pick(random, ACCEPTS));
            case 1 -> Map.of("X-Request-Id", pick(random, List.of("bad id <script>", "x".repeat(500), "é", "")));
            case 2 -> Map.of("X-Padding", "p".repeat(20_000));
            case 3 -> Map.of("X-Forwarded-For", text(random).replaceAll("[^ -~]", "?"));
            default -> Map.of();
        };
    }

    // ---- bodies --------------------------------------------------------------------------------------------------

    /** A valid body with one to three mutations: values replaced, fields removed, unknown fields added. */
    static byte[] mutated(Random random, String validBody) {
        JsonNode body = read(validBody);
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            body = mutate(random, body, 0);
        }
        return write(body);
    }

    private static JsonNode mutate(Random random, JsonNode node, int depth) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        boolean container = node.isObject() || node.isArray();
        if (!container || random.nextInt(4) == 0 || node.isEmpty()) {
            if (node.isObject() && random.nextBoolean()) {
                ((ObjectNode) node).set(random.nextBoolean() ? text(random) : "unknownField", value(random, 0));
                return node;
            }
            return value(random, depth);
        }
        if (node.isObject()) {
            String key = pick(random, keys);
            switch (random.nextInt(5)) {
                case 0 -> ((ObjectNode) node).remove(key);
                case 1 -> ((ObjectNode) node).putNull(key);
                default -> ((ObjectNode) node).set(key, mutate(random, node.get(key), depth + 1));
            }
        } else {
            ArrayNode array = (ArrayNode) node;
            int at = random.nextInt(array.size());
            switch (random.nextInt(4)) {
                case 0 -> array.remove(at);
                case 1 -> array.add(value(random, depth + 1));
                default -> array.set(at, mutate(random, array.get(at), depth + 1));
            }
        }
        return node;
    }

    /** Any JSON value: edge-case scalars, nested and deep containers. */
    static JsonNode value(Random random, int depth) {
        return switch (random.nextInt(depth > 3 ? 9 : 12)) {
            case 0 -> NODES.textNode(text(random));
            case 1 -> NODES.numberNode(someLong(random));
            case 2 -> NODES.numberNode(someDouble(random));
            case 3 -> NODES.numberNode(new BigDecimal(pick(random, NUMBER_TEXTS)));
            case 4 -> NODES.booleanNode(random.nextBoolean());
            case 5 -> NODES.nullNode();
            case 6 -> NODES.numberNode(new BigInteger(random.nextInt(200) + 1, random).negate());
            case 7 -> NODES.textNode("x".repeat(random.nextInt(3) == 0 ? 100_000 : 300));
            case 8 -> NODES.textNode(pick(random, List.of("", " ", "https://", "http://localhost/x", "openai",
                    "11labs", "0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d", "true", "1", "[]", "{}", "\u202e", "\ud83d\ude00")));
            case 9 -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(value(random, depth + 1));
                }
                yield array;
            }
            case 10 -> {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.set(text(random), value(random, depth + 1));
                }
                yield object;
            }
            default -> nested(random.nextInt(2000) + 1);
        };
    }

    private static JsonNode nested(int depth) {
        JsonNode inner = NODES.numberNode(1);
        for (int i = 0; i < depth; i++) {
            inner = i % 2 == 0 ? NODES.arrayNode().add(inner) : NODES.objectNode().set("a", inner);
        }
        return inner;
    }

    /** Bytes that are not a body any endpoint may accept: every one of them must be answered with a 4xx. */
    static byte[] malformed(Random random, String validBody) {
        byte[] valid = validBody.getBytes(UTF_8);
        return switch (random.nextInt(20)) {
            case 0 -> java.util.Arrays.copyOf(valid, random.nextInt(Math.max(1, valid.length - 1)));
            case 1 -> {
                byte[] noise = new byte[random.nextInt(200) + 1];
                random.nextBytes(noise);
                yield noise;
            }
            case 2 -> inject(validBody, pick(random, List.of(new byte[] {(byte) 0xc0, (byte) 0xaf},
                    new byte[] {(byte) 0xe0, (byte) 0x80, (byte) 0xaf}, new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                    new byte[] {(byte) 0xff}, new byte[] {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80})), random);
            case 3 -> inject(validBody, "\\u0000".getBytes(UTF_8), random);
            case 4 -> inject(validBody, "\\ud800".getBytes(UTF_8), random);
            case 5 -> ("[".repeat(5000) + "]".repeat(5000)).getBytes(UTF_8);
            case 6 -> ("{\"a\":".repeat(3000) + "1" + "}".repeat(3000)).getBytes(UTF_8);
            case 7 -> pick(random, List.of("[]", "1", "\"x\"", "null", "true", "[" + validBody + "]")).getBytes(UTF_8);
            case 8 -> new byte[0];
            case 9 -> (validBody.substring(0, validBody.length() - 1) + ",\"a\":1,\"a\":2}").getBytes(UTF_8);
            case 10 -> (validBody + pick(random, List.of(" {}", "x", ",", "]"))).getBytes(UTF_8);
            case 11 -> oversized();
            case 12 -> concat(valid, new byte[] {(byte) 0xc3});
            // Single quotes; a body without strings ({}) gets one, or it would stay valid.
            case 13 -> (validBody.contains("\"") ? validBody.replace("\"", "'") : "{'a':1}").getBytes(UTF_8);
            case 14 -> ("/* c */" + validBody).getBytes(UTF_8);
            case 15 -> valueAt(validBody, pick(random, List.of("NaN", "Infinity", "01", "+1", "0x10", ".5", "1.", "-")));
            case 16 -> validBody.getBytes(java.nio.charset.StandardCharsets.UTF_16);
            case 17 -> valueAt(validBody, "1e" + (1001 + random.nextInt(100_000)));
            case 18 -> valueAt(validBody, nestedText(JsonLimits.MAX_DEPTH + random.nextInt(1000)));
            default -> valueAt(validBody, "3" + "3".repeat(2100));
        };
    }

    /**
     * A value nested {@code depth} levels deep (objects and arrays in turn), as text: inside a body's top-level
     * object it makes the body one level deeper, so {@code JsonLimits.MAX_DEPTH} or more is always refused.
     */
    static String nestedText(int depth) {
        StringBuilder open = new StringBuilder();
        StringBuilder close = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            boolean array = i % 2 == 0;
            open.append(array ? "[" : "{\"a\":");
            close.append(array ? "]" : "}");
        }
        return open + "1" + close.reverse();
    }

    // ---- multipart -----------------------------------------------------------------------------------------------

    /** A multipart request: its {@code Content-Type}, its body, and the bytes of the file it carries (null: none). */
    record Multipart(String contentType, byte[] body, byte[] file) {
    }

    private static final String BOUNDARY = "fuzz-boundary-7MA4YWxk";

    /** File names as clients and attackers send them, with each part header that carries them. */
    private static final List<String> FILE_NAMES = List.of("filename=\"notes.txt\"", "filename=\"\"", "filename=notes.txt",
            "filename=\"../../etc/passwd\"", "filename=\"a\\\"b.txt\"", "filename=\"C:\\dir\\x.txt\"",
            "filename*=UTF-8''%FF%ZZ.txt", "filename*=UTF-8''%", "filename*=UTF-8''%E2%82", "filename*=UTF-8''%C0%AF.txt",
            "filename*=UTF-8''%00.txt", "filename*=UTF-8''a%2Fb.txt", "filename*=UTF-8''%E2%80%AEtxt.exe",
            "filename*=UTF-8''pri%C3%A8re.txt", "filename*=ISO-8859-1''caf%E9.txt", "filename*=''x.txt",
            "filename*=UTF-8'en'%F0%9F%98%80.txt", "filename=\"x.txt\"; filename*=UTF-8''y.txt",
            "filename=\"" + "n".repeat(5000) + ".txt\"", "filename=\"\u00e9t\u00e9.txt\"");

    private static final List<String> CONTROL_CHARACTERS = List.of("\n", "\r", "\r\n", "\u0000", "\t", "\u007f",
            "\u001b", "\u0085");

    /**
     * A {@code multipart/form-data} upload: well-formed, or with a part nested in the file part, odd file-name
     * encodings, raw control characters in part headers, broken framing, or parts that are not one named file.
     */
    static Multipart multipart(Random random) {
        byte[] file = ("fuzz upload " + text(random).replaceAll("[^ -~]", "?") + "\n").getBytes(UTF_8);
        String disposition = "Content-Disposition: form-data; name=\"file\"; ";
        String contentType = "multipart/form-data; boundary=" + BOUNDARY;
        return switch (random.nextInt(12)) {
            case 0, 1 -> form(contentType, disposition + "filename=\"f.txt\"\r\nContent-Type: text/plain", file);
            case 2 -> form(contentType, disposition + pick(random, FILE_NAMES) + "\r\nContent-Type: text/plain", file);
            case 3 -> {
                String name = "a" + pick(random, CONTROL_CHARACTERS) + "b.txt";
                yield form(contentType, disposition + pick(random, List.of("filename=\"" + name + "\"",
                        "filename*=UTF-8''" + name)) + "\r\nContent-Type: text/plain", file);
            }
            case 4 -> {
                byte[] nested = ("--inner\r\nContent-Disposition: file; filename=\"n.txt\"\r\n"
                        + "Content-Type: text/plain\r\n\r\n" + new String(file, UTF_8) + "\r\n--inner--").getBytes(UTF_8);
                String header = random.nextBoolean() ? disposition + "filename=\"outer.txt\"" : disposition.strip();
                yield form(contentType, header + "\r\nContent-Type: multipart/mixed; boundary=inner", nested);
            }
            case 5 -> form(contentType, disposition + "filename=\"f.txt\"\r\nContent-Type: "
                    + pick(random, List.of("multipart/mixed", "garbage", ";", "text/plain; charset=utf-16",
                    "application/octet-stream", "text/plain\u0000")), file);
            case 6 -> form(contentType, pick(random, List.of("Content-Disposition: form-data; name=\"other\"; filename=\"f.txt\"",
                    "Content-Disposition: form-data; name=\"file\"", "Content-Disposition: attachment; filename=\"f.txt\"",
                    "Content-Disposition: form-data; name=file; name=\"file\"; filename=\"f.txt\"",
                    "Content-Disposition: form-data", "Content-Disposition:", "X-Other: 1")), file);
            case 7 -> {
                byte[] whole = form(contentType, disposition + "filename=\"f.txt\"", file).body();
                yield new Multipart(contentType, java.util.Arrays.copyOf(whole, random.nextInt(whole.length)), file);
            }
            case 8 -> form(pick(random, List.of("multipart/form-data", "multipart/form-data; boundary=",
                    "multipart/form-data; boundary=\"" + BOUNDARY + "\"", "multipart/form-data; boundary=other",
                    "multipart/mixed; boundary=" + BOUNDARY, "multipart/form-data; boundary=" + BOUNDARY + "; charset=x")),
                    disposition + "filename=\"f.txt\"", file);
            case 9 -> {
                Multipart one = form(contentType, disposition + "filename=\"f.txt\"", file);
                String again = "--" + BOUNDARY + "\r\n" + disposition + "filename=\"g.txt\"\r\n\r\nsecond\r\n";
                yield new Multipart(contentType, concat(again.getBytes(UTF_8), one.body()), file);
            }
            case 10 -> form(contentType, disposition + "filename=\"f.txt\"\r\n" + "X-Long: " + "h".repeat(20_000), file);
            default -> form(contentType, disposition + "filename=\"f.txt\"", new byte[0]);
        };
    }

    private static Multipart form(String contentType, String partHeaders, byte[] content) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(("--" + BOUNDARY + "\r\n" + partHeaders + "\r\n\r\n").getBytes(UTF_8));
        body.writeBytes(content);
        body.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(UTF_8));
        return new Multipart(contentType, body.toByteArray(), content);
    }

    private static byte[] oversized() {
        StringBuilder body = new StringBuilder("{\"name\":\"");
        body.append("y".repeat(1_100_000));
        return body.append("\"}").toString().getBytes(UTF_8);
    }

    /** The valid body with one more field whose value is raw JSON text (such as a number out of range). */
    static byte[] valueAt(String validBody, String rawValue) {
        String rest = validBody.strip().length() > 2 ? "," + validBody.strip().substring(1) : "}";
        return ("{\"metadata\":" + rawValue + rest).getBytes(UTF_8);
    }

    /** The bytes placed at a random point inside the first string value of the body (or at a random point). */
    private static byte[] inject(String validBody, byte[] bytes, Random random) {
        byte[] valid = validBody.getBytes(UTF_8);
        int quote = validBody.indexOf(":\"");
        int at = quote >= 0 ? validBody.substring(0, quote + 2).getBytes(UTF_8).length : random.nextInt(valid.length + 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(valid, 0, at);
        out.writeBytes(bytes);
        out.write(valid, at, valid.length - at);
        return out.toByteArray();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] write(JsonNode json) {
        try {
            return JSON.writeValueAsBytes(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
