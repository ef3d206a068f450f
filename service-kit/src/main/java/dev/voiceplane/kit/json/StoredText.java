package dev.voiceplane.kit.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import com.fasterxml.jackson.core.json.WriterBasedJsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.BaseJsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A stored document answered straight from its jsonb text, with no tree: the text is scanned once against a plan
 * of its type ({@link Plan}, worked out once per type from its {@link DocumentShape}), which records where each
 * property the type knows starts and ends, and checks that it holds a value of its JSON type; writing then puts
 * the properties in the type's order and copies each value's bytes to the output, only taking out the blanks
 * PostgreSQL's text has ({@code {"a": 1, "b": [1, 2]}}) and writing escapes the way Jackson does. What comes out is
 * what {@link DocumentShape#writeFields} writes from the parsed tree, byte for byte; anything the scan is not sure
 * of (text that is not jsonb's output, a lone surrogate, a number or a nesting beyond the reader's limits) makes the
 * document not fit, and the caller takes the tree.
 */
final class StoredText {

    static final int TEXT = 0;
    static final int BOOL = 1;
    static final int DECIMAL = 2;
    static final int ANY = 3;
    static final int FREE_OBJECT = 4;
    static final int ARRAY = 5;
    static final int OBJECT = 6;
    static final int UNSUPPORTED = 7;

    /** Below the reader's nesting limit (Jackson's 1000): deeper documents take the tree, which refuses them. */
    private static final int MAX_DEPTH = 500;
    /** Below the reader's name length limit (Jackson's 50,000). */
    private static final int MAX_NAME_BYTES = 10_000;
    /** Under {@link JsonLimits#MAX_NUMBER_LENGTH}, allowing for a sign and a point. */
    private static final int MAX_NUMBER_BYTES = JsonLimits.MAX_NUMBER_LENGTH - 2;
    /** A secret that did not open: the property is left out, as the tree's {@code SealedFields.open} leaves it. */
    private static final String LEFT_OUT = new String("left out");

    private StoredText() {
    }

    /** What a property (or an array's element) holds. */
    static final class Kind {
        final int code;
        final Kind element;
        final Plan object;

        Kind(int code, Kind element, Plan object) {
            this.code = code;
            this.element = element;
            this.object = object;
        }
    }

    /** The properties of one object of a type, in the type's order, with a hash table of their names' bytes. */
    static final class Plan {
        final SerializedString[] names;
        final byte[][] keys;
        final Kind[] kinds;
        final boolean[] secret;
        final int[] table;
        final int mask;

        /** The kinds are filled in afterwards (by {@code DocumentShape}), so that a type can contain itself. */
        Plan(List<String> names, boolean[] secret) {
            int count = names.size();
            this.names = new SerializedString[count];
            this.keys = new byte[count][];
            this.kinds = new Kind[count];
            this.secret = secret;
            int size = Integer.highestOneBit(Math.max(4, count * 4) - 1) << 1;
            this.table = new int[size];
            this.mask = size - 1;
            for (int i = 0; i < count; i++) {
                this.names[i] = new SerializedString(names.get(i));
                this.keys[i] = names.get(i).getBytes(StandardCharsets.UTF_8);
                int slot = hash(keys[i], 0, keys[i].length) & mask;
                while (table[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                table[slot] = i + 1;
            }
        }

        int find(byte[] text, int from, int to, int hash) {
            for (int slot = hash & mask;; slot = (slot + 1) & mask) {
                int entry = table[slot];
                if (entry == 0) {
                    return -1;
                }
                byte[] key = keys[entry - 1];
                if (Arrays.equals(key, 0, key.length, text, from, to)) {
                    return entry - 1;
                }
            }
        }
    }

    static int hash(byte[] text, int from, int to) {
        int hash = 0;
        for (int i = from; i < to; i++) {
            hash = 31 * hash + text[i];
        }
        return hash;
    }

    /** One scanned object: where each known property's value is, and what its nested objects and secrets hold. */
    static final class Scanned {
        final Plan plan;
        /** Per property: start, end (exclusive), and whether its bytes need compacting (-1 start: absent). */
        final int[] spans;
        /** Per property: the {@link Scanned} object, the {@code Scanned[]} elements, or the opened secret. */
        Object[] inner;

        Scanned(Plan plan) {
            this.plan = plan;
            this.spans = new int[plan.names.length * 3];
            for (int i = 0; i < spans.length; i += 3) {
                spans[i] = -1;
            }
        }

        void setInner(int property, Object value) {
            if (inner == null) {
                inner = new Object[plan.names.length];
            }
            inner[property] = value;
        }
    }

    /** Thrown (without a stack) when the text does not read as the plan's type exactly. */
    private static final class DoesNotFit extends Exception {
        DoesNotFit() {
            super(null, null, false, false);
        }
    }

    private static final DoesNotFit DOES_NOT_FIT = new DoesNotFit();

    /**
     * Scans a stored document against its plan; null when it does not read as the type exactly. {@code open} turns
     * each secret's stored text into what is answered (null: left out).
     */
    static Scanned scan(byte[] text, Plan plan, UnaryOperator<String> open) {
        Scanner scanner = new Scanner(text, open);
        try {
            int at = scanner.blank(0);
            if (at >= text.length || text[at] != '{') {
                return null;
            }
            Scanned scanned = new Scanned(plan);
            at = scanner.blank(scanner.object(at, scanned, 1));
            return at == text.length ? scanned : null;
        } catch (DoesNotFit | ArrayIndexOutOfBoundsException e) {
            return null;
        }
    }

    /**
     * Writes a scanned object's known properties, in its type's order, into the object {@code generator} has open.
     * A generator that writes JSON otherwise than the kit's mapper (pretty printing, escaping non-ASCII, numbers as
     * strings, a generator of another kind) gets each value as a tree read with {@code reader} instead of its bytes.
     */
    static void writeFields(byte[] text, Scanned scanned, JsonGenerator generator, SerializerProvider provider,
            ObjectReader reader) throws IOException {
        RawValue raw = new RawValue(text, generator instanceof UTF8JsonGenerator
                && !generator.isEnabled(JsonGenerator.Feature.COMBINE_UNICODE_SURROGATES_IN_UTF8));
        writeFields(scanned, generator, raw, copiesBytes(generator) ? null : new Trees(provider, reader));
    }

    /** Whether {@code generator} writes a tree's values as {@link #compact} writes them. */
    private static boolean copiesBytes(JsonGenerator generator) {
        return (generator instanceof UTF8JsonGenerator || generator instanceof WriterBasedJsonGenerator)
                && generator.getPrettyPrinter() == null
                && generator.getCharacterEscapes() == null
                && generator.getHighestEscapedChar() == 0
                && !generator.isEnabled(JsonGenerator.Feature.ESCAPE_NON_ASCII)
                && !generator.isEnabled(JsonGenerator.Feature.ESCAPE_FORWARD_SLASHES)
                && !generator.isEnabled(JsonGenerator.Feature.WRITE_NUMBERS_AS_STRINGS)
                && generator.isEnabled(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
                && generator.isEnabled(JsonGenerator.Feature.WRITE_HEX_UPPER_CASE);
    }

    /** Writes values as the tree does, for generators {@link #copiesBytes} says no to. */
    private record Trees(SerializerProvider provider, ObjectReader reader) {
        void write(byte[] text, int from, int to, JsonGenerator generator) throws IOException {
            JsonNode node = reader.readTree(new String(text, from, to - from, StandardCharsets.UTF_8));
            ((BaseJsonNode) node).serialize(generator, provider);
        }
    }

    private static void writeFields(Scanned scanned, JsonGenerator generator, RawValue raw, Trees trees)
            throws IOException {
        Plan plan = scanned.plan;
        int[] spans = scanned.spans;
        for (int i = 0; i < plan.names.length; i++) {
            int start = spans[i * 3];
            if (start < 0) {
                continue;
            }
            Object inner = scanned.inner == null ? null : scanned.inner[i];
            if (inner == LEFT_OUT) {
                continue;
            }
            generator.writeFieldName(plan.names[i]);
            if (inner instanceof Scanned object) {
                generator.writeStartObject();
                writeFields(object, generator, raw, trees);
                generator.writeEndObject();
            } else if (inner instanceof Scanned[] elements) {
                generator.writeStartArray();
                for (Scanned element : elements) {
                    generator.writeStartObject();
                    writeFields(element, generator, raw, trees);
                    generator.writeEndObject();
                }
                generator.writeEndArray();
            } else if (inner instanceof String opened) {
                generator.writeString(opened);
            } else if (trees != null) {
                trees.write(raw.text, start, spans[i * 3 + 1], generator);
            } else {
                raw.set(start, spans[i * 3 + 1], spans[i * 3 + 2] != 0);
                generator.writeRawValue(raw);
            }
        }
    }

    private static final class Scanner {
        private final byte[] text;
        private final UnaryOperator<String> open;
        /** Set by {@link #string}: whether the string just scanned has an escape or a character beyond U+FFFF. */
        private boolean escaped;

        Scanner(byte[] text, UnaryOperator<String> open) {
            this.text = text;
            this.open = open;
        }

        int blank(int at) {
            while (at < text.length) {
                byte b = text[at];
                if (b != ' ' && b != '\n' && b != '\t' && b != '\r') {
                    break;
                }
                at++;
            }
            return at;
        }

        /** Scans the object at {@code at} ('{') into {@code into}; returns where it ends. */
        int object(int at, Scanned into, int depth) throws DoesNotFit {
            if (depth > MAX_DEPTH) {
                throw DOES_NOT_FIT;
            }
            Plan plan = into.plan;
            at = blank(at + 1);
            if (text[at] == '}') {
                return at + 1;
            }
            while (true) {
                if (text[at] != '"') {
                    throw DOES_NOT_FIT;
                }
                int nameStart = at + 1;
                int hash = 0;
                int i = nameStart;
                boolean plain = true;
                while (true) {
                    byte b = text[i];
                    if (b == '"') {
                        break;
                    }
                    if (b == '\\') {
                        plain = false;
                        i = string(at) - 1;
                        break;
                    }
                    hash = 31 * hash + b;
                    i++;
                }
                int nameEnd = i;
                if (nameEnd - nameStart > MAX_NAME_BYTES) {
                    throw DOES_NOT_FIT;
                }
                // A name with an escape holds a character jsonb escapes (a quote, a control character): no property's.
                int property = plain ? plan.find(text, nameStart, nameEnd, hash) : -1;
                at = blank(nameEnd + 1);
                if (text[at] != ':') {
                    throw DOES_NOT_FIT;
                }
                at = blank(at + 1);
                at = property < 0 ? value(at, depth) : property(at, into, property, depth);
                at = blank(at);
                byte next = text[at];
                if (next == '}') {
                    return at + 1;
                }
                if (next != ',') {
                    throw DOES_NOT_FIT;
                }
                at = blank(at + 1);
            }
        }

        /** Scans the value of a known property; it must fit, as {@code DocumentShape.fits} has it. */
        private int property(int at, Scanned into, int property, int depth) throws DoesNotFit {
            Plan plan = into.plan;
            Kind kind = plan.kinds[property];
            int end;
            boolean compact = false;
            byte first = text[at];
            if (plan.secret[property] && first == '"') {
                end = string(at);
                if (!fitsText(kind)) {
                    throw DOES_NOT_FIT;
                }
                compact = escaped;
                String stored = escaped ? decode(text, at + 1, end - 1)
                        : new String(text, at + 1, end - at - 2, StandardCharsets.UTF_8);
                String opened = open.apply(stored);
                if (opened == null) {
                    into.setInner(property, LEFT_OUT);
                } else if (!opened.equals(stored)) {
                    into.setInner(property, opened);
                }
            } else {
                switch (kind.code) {
                    case OBJECT -> {
                        if (first != '{') {
                            throw DOES_NOT_FIT;
                        }
                        Scanned object = new Scanned(kind.object);
                        end = object(at, object, depth + 1);
                        into.setInner(property, object);
                    }
                    case ARRAY -> {
                        if (first != '[') {
                            throw DOES_NOT_FIT;
                        }
                        if (kind.element.code == OBJECT) {
                            List<Scanned> elements = new ArrayList<>();
                            end = objects(at, kind.element.object, elements, depth + 1);
                            into.setInner(property, elements.toArray(Scanned[]::new));
                        } else {
                            end = array(at, kind.element, depth + 1);
                            compact = true;
                        }
                    }
                    default -> {
                        end = fitting(at, kind, depth);
                        compact = first == '{' || first == '[' || first == '"' && escaped;
                    }
                }
            }
            into.spans[property * 3] = at;
            into.spans[property * 3 + 1] = end;
            into.spans[property * 3 + 2] = compact ? 1 : 0;
            return end;
        }

        private static boolean fitsText(Kind kind) {
            return kind.code == TEXT || kind.code == ANY;
        }

        /** A value of a kind other than an object or an array of objects: checked, its end returned. */
        private int fitting(int at, Kind kind, int depth) throws DoesNotFit {
            byte first = text[at];
            escaped = false;
            switch (kind.code) {
                case TEXT -> {
                    if (first != '"') {
                        throw DOES_NOT_FIT;
                    }
                    return string(at);
                }
                case BOOL -> {
                    if (first != 't' && first != 'f') {
                        throw DOES_NOT_FIT;
                    }
                    return literal(at);
                }
                case DECIMAL -> {
                    if (first != '-' && (first < '0' || first > '9')) {
                        throw DOES_NOT_FIT;
                    }
                    return number(at);
                }
                case ANY -> {
                    if (first == 'n') {
                        throw DOES_NOT_FIT;
                    }
                    return value(at, depth);
                }
                case FREE_OBJECT -> {
                    if (first != '{') {
                        throw DOES_NOT_FIT;
                    }
                    return value(at, depth);
                }
                case ARRAY -> {
                    if (first != '[') {
                        throw DOES_NOT_FIT;
                    }
                    return array(at, kind.element, depth + 1);
                }
                case OBJECT -> {
                    if (first != '{') {
                        throw DOES_NOT_FIT;
                    }
                    return object(at, new Scanned(kind.object), depth + 1);
                }
                default -> throw DOES_NOT_FIT;
            }
        }

        /** An array whose every element fits {@code element} (written as stored, so only checked). */
        private int array(int at, Kind element, int depth) throws DoesNotFit {
            if (depth > MAX_DEPTH) {
                throw DOES_NOT_FIT;
            }
            at = blank(at + 1);
            if (text[at] == ']') {
                return at + 1;
            }
            while (true) {
                at = blank(fitting(at, element, depth));
                byte next = text[at];
                if (next == ']') {
                    return at + 1;
                }
                if (next != ',') {
                    throw DOES_NOT_FIT;
                }
                at = blank(at + 1);
            }
        }

        /** An array of objects of one plan, each scanned into {@code elements}. */
        private int objects(int at, Plan plan, List<Scanned> elements, int depth) throws DoesNotFit {
            at = blank(at + 1);
            if (text[at] == ']') {
                return at + 1;
            }
            while (true) {
                if (text[at] != '{') {
                    throw DOES_NOT_FIT;
                }
                Scanned element = new Scanned(plan);
                at = blank(object(at, element, depth + 1));
                elements.add(element);
                byte next = text[at];
                if (next == ']') {
                    return at + 1;
                }
                if (next != ',') {
                    throw DOES_NOT_FIT;
                }
                at = blank(at + 1);
            }
        }

        /** Any JSON value (a property the type does not know, or free-form JSON): its end. */
        private int value(int at, int depth) throws DoesNotFit {
            byte first = text[at];
            escaped = false;
            if (first == '"') {
                return string(at);
            }
            if (first == '{' || first == '[') {
                return container(at, depth);
            }
            if (first == '-' || first >= '0' && first <= '9') {
                return number(at);
            }
            return literal(at);
        }

        /** An object or an array of anything, checked for well-formedness only. */
        private int container(int at, int depth) throws DoesNotFit {
            int nesting = 0;
            boolean expectName = false;
            while (true) {
                byte b = text[at];
                switch (b) {
                    case '{', '[' -> {
                        nesting++;
                        if (depth + nesting > MAX_DEPTH) {
                            throw DOES_NOT_FIT;
                        }
                        at++;
                    }
                    case '}', ']' -> {
                        nesting--;
                        at++;
                        if (nesting == 0) {
                            return at;
                        }
                    }
                    case '"' -> at = string(at);
                    case ',', ':', ' ', '\n', '\t', '\r' -> at++;
                    default -> {
                        if (b == '-' || b >= '0' && b <= '9') {
                            at = number(at);
                        } else {
                            at = literal(at);
                        }
                    }
                }
            }
        }

        /**
         * The string starting at {@code at} (its quote): returns the index after its closing quote and sets
         * {@link #escaped}. A control character in it, or an escape jsonb does not write (a lone surrogate), does
         * not fit.
         */
        int string(int at) throws DoesNotFit {
            int i = at + 1;
            boolean anyEscape = false;
            while (true) {
                byte b = text[i];
                if (b == '"') {
                    escaped = anyEscape;
                    return i + 1;
                }
                if (b == '\\') {
                    anyEscape = true;
                    i = escape(i);
                } else if (b >= 0 && b < 0x20) {
                    throw DOES_NOT_FIT;
                } else {
                    // A character beyond U+FFFF: Jackson's UTF-8 generator writes it as two escapes.
                    anyEscape |= (b & 0xF8) == 0xF0;
                    i++;
                }
            }
        }

        /** Checks the escape at {@code at} (its backslash); returns the index after it. */
        private int escape(int at) throws DoesNotFit {
            byte kind = text[at + 1];
            switch (kind) {
                case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                    return at + 2;
                }
                case 'u' -> {
                    int unit = hex4(text, at + 2);
                    if (unit < 0 || Character.isLowSurrogate((char) unit)) {
                        throw DOES_NOT_FIT;
                    }
                    if (Character.isHighSurrogate((char) unit)) {
                        int low = text[at + 6] == '\\' && text[at + 7] == 'u' ? hex4(text, at + 8) : -1;
                        if (low < 0 || !Character.isLowSurrogate((char) low)) {
                            throw DOES_NOT_FIT;
                        }
                        return at + 12;
                    }
                    return at + 6;
                }
                default -> throw DOES_NOT_FIT;
            }
        }

        private int number(int at) throws DoesNotFit {
            int i = at;
            if (text[i] == '-') {
                i++;
            }
            int digits = i;
            while (i < text.length && (text[i] >= '0' && text[i] <= '9' || text[i] == '.' || text[i] == 'e'
                    || text[i] == 'E' || text[i] == '+' || text[i] == '-')) {
                i++;
            }
            if (i == digits || i - at > MAX_NUMBER_BYTES) {
                throw DOES_NOT_FIT;
            }
            // jsonb writes numbers plainly (PostgreSQL's numeric): an exponent means the text is not its output.
            boolean zero = true;
            for (int j = digits; j < i; j++) {
                byte b = text[j];
                if (b == 'e' || b == 'E' || b == '+' || b == '-') {
                    throw DOES_NOT_FIT;
                }
                zero &= b == '0' || b == '.';
            }
            if (zero && digits > at) {
                throw DOES_NOT_FIT; // -0 (numeric has none): the tree would write it without its sign
            }
            return i;
        }

        private int literal(int at) throws DoesNotFit {
            if (matches(at, TRUE)) {
                return at + 4;
            }
            if (matches(at, FALSE)) {
                return at + 5;
            }
            if (matches(at, NULL)) {
                return at + 4;
            }
            throw DOES_NOT_FIT;
        }

        private boolean matches(int at, byte[] word) {
            return at + word.length <= text.length && Arrays.equals(text, at, at + word.length, word, 0, word.length);
        }
    }

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    static int hex4(byte[] text, int at) {
        if (at + 4 > text.length) {
            return -1;
        }
        int value = 0;
        for (int i = at; i < at + 4; i++) {
            int digit = Character.digit(text[i], 16);
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }

    /**
     * Copies a scanned value as Jackson writes the same value from a tree: blanks outside strings taken out, escapes
     * written as Jackson writes them ({@code \u001f} becomes {@code \u001F}, {@code \/} and {@code \u00e9} the
     * characters themselves). Never longer than the stored text. Returns the end in {@code out}.
     */
    static int compact(byte[] text, int from, int to, byte[] out, int at, boolean escapeSupplementary) {
        int i = from;
        while (i < to) {
            byte b = text[i];
            if (b == '"') {
                out[at++] = b;
                i++;
                while (true) {
                    byte c = text[i];
                    if (c == '"') {
                        out[at++] = c;
                        i++;
                        break;
                    }
                    if (c == '\\') {
                        int[] step = {i, at};
                        unescape(text, out, step, escapeSupplementary);
                        i = step[0];
                        at = step[1];
                    } else if ((c & 0xF8) == 0xF0 && escapeSupplementary) {
                        int codePoint = (c & 0x07) << 18 | (text[i + 1] & 0x3F) << 12 | (text[i + 2] & 0x3F) << 6
                                | text[i + 3] & 0x3F;
                        at = surrogates(out, at, codePoint);
                        i += 4;
                    } else {
                        out[at++] = c;
                        i++;
                    }
                }
            } else if (b == ' ' || b == '\n' || b == '\t' || b == '\r') {
                i++;
            } else {
                out[at++] = b;
                i++;
            }
        }
        return at;
    }

    /** Rewrites the escape at {@code step[0]} to {@code out} at {@code step[1]}, as Jackson's generator writes it. */
    private static void unescape(byte[] text, byte[] out, int[] step, boolean escapeSupplementary) {
        int i = step[0];
        int at = step[1];
        byte kind = text[i + 1];
        if (kind != 'u') {
            if (kind == '/') {
                out[at++] = '/';
            } else {
                out[at++] = '\\';
                out[at++] = kind;
            }
            step[0] = i + 2;
            step[1] = at;
            return;
        }
        int unit = hex4(text, i + 2);
        i += 6;
        int codePoint = unit;
        if (Character.isHighSurrogate((char) unit)) {
            codePoint = Character.toCodePoint((char) unit, (char) hex4(text, i + 2));
            i += 6;
        }
        switch (codePoint) {
            case '"', '\\' -> {
                out[at++] = '\\';
                out[at++] = (byte) codePoint;
            }
            case '\b' -> at = shortEscape(out, at, 'b');
            case '\t' -> at = shortEscape(out, at, 't');
            case '\n' -> at = shortEscape(out, at, 'n');
            case '\f' -> at = shortEscape(out, at, 'f');
            case '\r' -> at = shortEscape(out, at, 'r');
            default -> {
                if (codePoint < 0x20) {
                    out[at++] = '\\';
                    out[at++] = 'u';
                    out[at++] = '0';
                    out[at++] = '0';
                    out[at++] = HEX[codePoint >> 4];
                    out[at++] = HEX[codePoint & 0xF];
                } else if (codePoint < 0x80) {
                    out[at++] = (byte) codePoint;
                } else if (codePoint < 0x800) {
                    out[at++] = (byte) (0xC0 | codePoint >> 6);
                    out[at++] = (byte) (0x80 | codePoint & 0x3F);
                } else if (codePoint < 0x10000) {
                    out[at++] = (byte) (0xE0 | codePoint >> 12);
                    out[at++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
                    out[at++] = (byte) (0x80 | codePoint & 0x3F);
                } else if (escapeSupplementary) {
                    at = surrogates(out, at, codePoint);
                } else {
                    out[at++] = (byte) (0xF0 | codePoint >> 18);
                    out[at++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
                    out[at++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
                    out[at++] = (byte) (0x80 | codePoint & 0x3F);
                }
            }
        }
        step[0] = i;
        step[1] = at;
    }

    /** A character beyond U+FFFF as Jackson's UTF-8 generator writes it: its two surrogates, escaped. */
    private static int surrogates(byte[] out, int at, int codePoint) {
        at = unicodeEscape(out, at, Character.highSurrogate(codePoint));
        return unicodeEscape(out, at, Character.lowSurrogate(codePoint));
    }

    private static int unicodeEscape(byte[] out, int at, char unit) {
        out[at++] = '\\';
        out[at++] = 'u';
        out[at++] = HEX[unit >> 12 & 0xF];
        out[at++] = HEX[unit >> 8 & 0xF];
        out[at++] = HEX[unit >> 4 & 0xF];
        out[at++] = HEX[unit & 0xF];
        return at;
    }

    /** The text of a JSON string's content (between its quotes), escapes decoded. */
    static String decode(byte[] text, int from, int to) {
        StringBuilder decoded = new StringBuilder(to - from);
        int plain = from;
        int i = from;
        while (i < to) {
            if (text[i] != '\\') {
                i++;
                continue;
            }
            decoded.append(new String(text, plain, i - plain, StandardCharsets.UTF_8));
            byte kind = text[i + 1];
            switch (kind) {
                case 'b' -> decoded.append('\b');
                case 'f' -> decoded.append('\f');
                case 'n' -> decoded.append('\n');
                case 'r' -> decoded.append('\r');
                case 't' -> decoded.append('\t');
                case 'u' -> {
                    decoded.append((char) hex4(text, i + 2));
                    i += 4;
                }
                default -> decoded.append((char) kind);
            }
            i += 2;
            plain = i;
        }
        return decoded.append(new String(text, plain, to - plain, StandardCharsets.UTF_8)).toString();
    }

    private static int shortEscape(byte[] out, int at, char letter) {
        out[at++] = '\\';
        out[at++] = (byte) letter;
        return at;
    }

    /**
     * One scanned value handed to the generator's {@code writeRawValue}: copied (compacted when it needs to be)
     * straight into the generator's buffer when it fits there.
     */
    static final class RawValue implements SerializableString {
        final byte[] text;
        private final boolean escapeSupplementary;
        private int from;
        private int to;
        private boolean compact;

        RawValue(byte[] text, boolean escapeSupplementary) {
            this.text = text;
            this.escapeSupplementary = escapeSupplementary;
        }

        void set(int from, int to, boolean compact) {
            this.from = from;
            this.to = to;
            this.compact = compact;
        }

        @Override
        public int appendUnquotedUTF8(byte[] buffer, int offset) {
            int length = to - from;
            if (!compact) {
                if (offset + length > buffer.length) {
                    return -1;
                }
                System.arraycopy(text, from, buffer, offset, length);
                return length;
            }
            if (offset + longest(length) > buffer.length) {
                return -1;
            }
            return compact(text, from, to, buffer, offset, escapeSupplementary) - offset;
        }

        /** Compacting never lengthens, except four bytes of a character beyond U+FFFF written as twelve. */
        private int longest(int length) {
            return escapeSupplementary ? length * 3 : length;
        }

        @Override
        public byte[] asUnquotedUTF8() {
            if (!compact) {
                return Arrays.copyOfRange(text, from, to);
            }
            byte[] out = new byte[longest(to - from)];
            return Arrays.copyOf(out, compact(text, from, to, out, 0, escapeSupplementary));
        }

        @Override
        public String getValue() {
            return new String(asUnquotedUTF8(), StandardCharsets.UTF_8);
        }

        @Override
        public int charLength() {
            return getValue().length();
        }

        @Override
        public int appendUnquoted(char[] buffer, int offset) {
            return -1; // the generator then writes getValue()
        }

        @Override
        public int writeUnquotedUTF8(OutputStream out) throws IOException {
            byte[] bytes = asUnquotedUTF8();
            out.write(bytes);
            return bytes.length;
        }

        @Override
        public int putUnquotedUTF8(ByteBuffer buffer) {
            byte[] bytes = asUnquotedUTF8();
            if (bytes.length > buffer.remaining()) {
                return -1;
            }
            buffer.put(bytes);
            return bytes.length;
        }

        // A raw value is never written as a quoted string.

        @Override
        public char[] asQuotedChars() {
            throw new UnsupportedOperationException();
        }

        @Override
        public byte[] asQuotedUTF8() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int appendQuotedUTF8(byte[] buffer, int offset) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int appendQuoted(char[] buffer, int offset) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int writeQuotedUTF8(OutputStream out) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int putQuotedUTF8(ByteBuffer buffer) {
            throw new UnsupportedOperationException();
        }
    }
}
