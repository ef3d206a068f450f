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
     * is not a value this service ever wrote: reading it fails loudly rather than inventing a status or reason.
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
            return find(type, stored).orElseThrow(() -> new IllegalStateException(
                    "a call column holds " + stored + ", which is no " + type.getSimpleName()));
        }
    }
}
