package dev.voiceplane.kit.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.error.ViolationMessages;
import jakarta.inject.Singleton;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Reads JSON that did not arrive as a request body (a stored document merged with a PATCH, say) under the
 * same rules as a body: unknown properties, wrong types and failed validation are a 400 listing every problem.
 */
@Singleton
public class StrictReader {

    private final ObjectMapper mapper;
    private final Validator validator;

    public StrictReader(ObjectMapper mapper, Validator validator) {
        this.mapper = mapper;
        this.validator = validator;
    }

    public <T> T read(JsonNode json, Class<T> type) {
        T value;
        UnknownProperties.begin();
        try {
            value = mapper.treeToValue(json, type);
        } catch (MismatchedInputException e) {
            UnknownProperties.end();
            throw ApiException.invalid(JsonPaths.describe(e));
        } catch (IOException e) {
            UnknownProperties.end();
            throw ApiException.invalid("request body could not be read: " + e.getMessage());
        }
        List<String> unknown = UnknownProperties.end();
        if (!unknown.isEmpty()) {
            throw ApiException.invalid(unknown);
        }
        validate(value);
        return value;
    }

    /** Bean-validates a value, throwing a 400 with every violation. */
    public <T> void validate(T value) {
        Set<ConstraintViolation<T>> violations = validator.validate(value);
        if (!violations.isEmpty()) {
            throw ApiException.invalid(ViolationMessages.of(violations));
        }
    }
}
