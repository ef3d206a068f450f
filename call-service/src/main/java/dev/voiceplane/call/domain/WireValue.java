package dev.voiceplane.call.domain;

import jakarta.persistence.AttributeConverter;
import java.util.Arrays;
import java.util.Optional;

/**
 * A value of the call domain that has one text on the wire and in its column ({@code in-progress},
 * {@code outboundPhoneCall}, {@code customer-ended-call}): the Java name is for the code, the text is the contract.
 */
public interface WireValue {

    String wire();

    /** The wire text of a value that may be absent (an {@code endedReason} before the end). */
    static String text(WireValue value) {
        return value == null ? null : value.wire();
    }

    /** The constant of {@code type} whose text is {@code wire}, if any. */
    static <E extends Enum<E> & WireValue> Optional<E> find(Class<E> type, String wire) {
        return Arrays.stream(type.getEnumConstants()).filter(value -> value.wire().equals(wire)).findFirst();
    }

    /**
     * Stores a value as its wire text, so the column holds exactly what the API shows. A column text no constant has
     * is not a value this service ever wrote: reading it fails loudly ({@link Unknown}) rather than inventing a status
     * or reason; the call's public reads then answer it as stored ({@code Call.AS_STORED}).
     */
    abstract class Column<E extends Enum<E> & WireValue> implements AttributeConverter<E, String> {

        private final Class<E> type;

        protected Column(Class<E> type) {
            this.type = type;
        }

        @Override
        public String convertToDatabaseColumn(E value) {
            return value == null ? null : value.wire();
        }

        @Override
        public E convertToEntityAttribute(String stored) {
            if (stored == null) {
                return null;
            }
            return find(type, stored).orElseThrow(() -> new Unknown(stored, type));
        }
    }

    /**
     * A column text no constant has: the entity cannot be read (so nothing acts on a value it does not know), but
     * the call's answer can be given as stored ({@code Call.AS_STORED}).
     */
    final class Unknown extends IllegalStateException {
        public Unknown(String stored, Class<?> type) {
            super("a call column holds " + stored + ", which is no " + type.getSimpleName());
        }

        /** The column text no constant has that {@code failure} is, or was caused by, if any. */
        public static Optional<Unknown> in(Throwable failure) {
            for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                if (cause instanceof Unknown unknown) {
                    return Optional.of(unknown);
                }
            }
            return Optional.empty();
        }
    }
}
