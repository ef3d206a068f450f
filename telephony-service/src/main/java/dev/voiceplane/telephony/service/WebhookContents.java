package dev.voiceplane.telephony.service;

import dev.voiceplane.contracts.telephony.CarrierEvent;
import dev.voiceplane.contracts.telephony.InboundCallRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Whether what a verified carrier webhook says can be handed to call-service at all, decided here before it is
 * asked: the contract's own constraints (a 5,000-character CallSid, a blank Vonage uuid, a status longer than any
 * carrier's) and text that no carrier sends and call-service refuses (control characters such as a {@code %00} in a
 * callId, unpaired surrogates). A webhook that fails is answered 2xx and dropped with a log line: asking again
 * would get the same answer, so the carrier must not be told to retry (a 5xx would have it retry for hours).
 */
@ApplicationScoped
public class WebhookContents {

    private final Validator validator;

    public WebhookContents(Validator validator) {
        this.validator = validator;
    }

    /** Why call-service could never record this event, or empty when it can be reported. */
    public Optional<String> problem(CarrierEvent event) {
        Optional<String> violated = violations(validator.validate(event));
        if (violated.isPresent()) {
            return violated;
        }
        return unreadable(Stream.of(
                new Field("eventId", event.eventId()), new Field("callId", event.callId()),
                new Field("phoneCallProviderId", event.phoneCallProviderId()),
                new Field("carrierStatus", event.carrierStatus()), new Field("answeredBy", event.answeredBy()),
                new Field("carrierTimestamp", event.carrierTimestamp())));
    }

    /** Why call-service could never open this inbound call, or empty when it can be asked. */
    public Optional<String> problem(InboundCallRequest request) {
        Optional<String> violated = violations(validator.validate(request));
        if (violated.isPresent()) {
            return violated;
        }
        return unreadable(Stream.of(new Field("phoneCallProviderId", request.phoneCallProviderId()),
                new Field("customer.number", request.customer() == null ? null : request.customer().number())));
    }

    /** A text that names something (an id, a status): control characters and unpaired surrogates never do. */
    public static boolean isReadable(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    private record Field(String name, String value) {
    }

    private static Optional<String> unreadable(Stream<Field> fields) {
        return fields.filter(field -> field.value() != null && !isReadable(field.value()))
                .map(field -> field.name() + " contains a control character or an unpaired surrogate")
                .findFirst();
    }

    /** The violations by path and message; never the values, which may be 60,000 characters of anything. */
    private static <T> Optional<String> violations(Set<ConstraintViolation<T>> violations) {
        if (violations.isEmpty()) {
            return Optional.empty();
        }
        Set<String> described = new TreeSet<>();
        violations.forEach(violation -> described.add(violation.getPropertyPath() + " " + violation.getMessage()));
        return Optional.of(String.join(", ", described));
    }
}
