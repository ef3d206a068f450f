package dev.voiceplane.kit.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The JSON rules every service shares: unset fields are omitted, date-times are ISO 8601 UTC with
 * milliseconds, values are never coerced between JSON types ({@code "1"} is not a number), duplicate
 * keys and trailing content are errors, unknown properties are collected by {@link UnknownProperties}.
 * Free-form JSON ({@code JsonNode}) keeps its numbers exactly as written: {@code 1.50} stays {@code 1.50},
 * {@code 0.30000000000000000001} does not become a double.
 */
@Singleton
public class JsonConventions implements ObjectMapperCustomizer {

    public static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** Last, so that the timestamp format wins over the JavaTimeModule that Quarkus registers. */
    @Override
    public int priority() {
        return MINIMUM_PRIORITY;
    }

    @Override
    public void customize(ObjectMapper mapper) {
        apply(mapper);
    }

    /** Applies the conventions to any mapper, so code outside CDI (tests, tools) reads JSON the same way. */
    public static ObjectMapper apply(ObjectMapper mapper) {
        // Request bodies and stored documents are read with the limit JsonBodyScreen enforces on what is stored.
        mapper.getFactory().setStreamReadConstraints(mapper.getFactory().streamReadConstraints().rebuild()
                .maxNumberLength(JsonLimits.MAX_NUMBER_LENGTH)
                .build());
        mapper.setSerializationInclusion(JsonInclude.Include.NON_NULL);
        mapper.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS);
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        mapper.configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);
        // 1E-7 is written 0.0000001, as PostgreSQL's jsonb gives it back, so a POST answers what a GET will.
        mapper.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Boolean)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        for (LogicalType numeric : new LogicalType[] {LogicalType.Integer, LogicalType.Float}) {
            mapper.coercionConfigFor(numeric)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        }
        mapper.addHandler(new UnknownProperties());
        mapper.registerModule(new SimpleModule("voiceplane-timestamps").addSerializer(Instant.class, new InstantMillis()));
        return mapper;
    }

    /**
     * Writes the fields every stored resource starts with ({@code id}, {@code orgId}, {@code createdAt},
     * {@code updatedAt}) into the object {@code generator} has open: for serializers that write a resource by hand.
     */
    public static void writeResourceFields(JsonGenerator generator, String id, String orgId, Instant createdAt,
            Instant updatedAt) throws IOException {
        // Names encoded once, timestamps written from their characters: a list writes these for every item.
        generator.writeFieldName(ID);
        generator.writeString(id);
        generator.writeFieldName(ORG_ID);
        generator.writeString(orgId);
        char[] timestamp = new char[TIMESTAMP_LENGTH];
        generator.writeFieldName(CREATED_AT);
        writeTimestamp(generator, createdAt, timestamp);
        generator.writeFieldName(UPDATED_AT);
        writeTimestamp(generator, updatedAt, timestamp);
    }

    private static final SerializedString ID = new SerializedString("id");
    private static final SerializedString ORG_ID = new SerializedString("orgId");
    private static final SerializedString CREATED_AT = new SerializedString("createdAt");
    private static final SerializedString UPDATED_AT = new SerializedString("updatedAt");
    private static final int TIMESTAMP_LENGTH = 24;

    private static void writeTimestamp(JsonGenerator generator, Instant value, char[] text) throws IOException {
        if (timestamp(value, text)) {
            generator.writeString(text, 0, TIMESTAMP_LENGTH);
        } else {
            generator.writeString(TIMESTAMP.format(value));
        }
    }

    /**
     * {@link #TIMESTAMP}'s text of an instant, written out by hand for the years 1 to 9999 (every timestamp a list
     * answers goes through here; the formatter costs several times as much), by the formatter otherwise.
     */
    public static String timestamp(Instant value) {
        char[] text = new char[TIMESTAMP_LENGTH];
        return timestamp(value, text) ? new String(text) : TIMESTAMP.format(value);
    }

    /** Writes {@link #TIMESTAMP}'s text of an instant into {@code text} (24 characters); false outside 1..9999. */
    private static boolean timestamp(Instant value, char[] text) {
        LocalDateTime at = LocalDateTime.ofEpochSecond(value.getEpochSecond(), value.getNano(), ZoneOffset.UTC);
        int year = at.getYear();
        if (year < 1 || year > 9999) {
            return false;
        }
        digits(text, 0, year, 4);
        text[4] = '-';
        digits(text, 5, at.getMonthValue(), 2);
        text[7] = '-';
        digits(text, 8, at.getDayOfMonth(), 2);
        text[10] = 'T';
        digits(text, 11, at.getHour(), 2);
        text[13] = ':';
        digits(text, 14, at.getMinute(), 2);
        text[16] = ':';
        digits(text, 17, at.getSecond(), 2);
        text[19] = '.';
        digits(text, 20, at.getNano() / 1_000_000, 3);
        text[23] = 'Z';
        return true;
    }

    private static void digits(char[] text, int from, int value, int width) {
        for (int i = from + width - 1; i >= from; i--) {
            text[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    static final class InstantMillis extends StdSerializer<Instant> {
        InstantMillis() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(timestamp(value));
        }
    }
}
