package dev.voiceplane.telephony.carrier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Sorts a carrier's answer to a REST call into the three outcomes every caller handles: success (2xx, the parsed
 * JSON body, an empty object when there is none), refusal (4xx: {@link CarrierFailure#rejected} with the carrier's
 * own reason, which the client can act on) or unavailable (no answer, 5xx, anything else: asking again may work).
 */
final class CarrierResponses {

    private CarrierResponses() {
    }

    /**
     * @param carrier the carrier's name, for messages ({@code "twilio refused: ..."})
     * @param reason the carrier's reason in a 4xx body, empty when it gives none
     */
    static JsonNode read(ObjectMapper json, String carrier, Supplier<Response> request, Function<JsonNode, String> reason) {
        Response response;
        try {
            response = request.get();
        } catch (WebApplicationException e) {
            // Should the client's default mapping turn an error status into an exception, read it all the same.
            response = e.getResponse();
        } catch (ProcessingException e) {
            throw CarrierFailure.unavailable(carrier + " could not be reached: " + e.getClass().getSimpleName());
        }
        try (Response answered = response) {
            String body = answered.hasEntity() ? answered.readEntity(String.class) : "";
            JsonNode parsed = parse(json, body);
            int status = answered.getStatus();
            if (status >= 200 && status < 300) {
                return parsed;
            }
            if (status >= 400 && status < 500) {
                String given = reason.apply(parsed);
                throw CarrierFailure.rejected(carrier + " refused: " + (given.isEmpty() ? "HTTP " + status : given), status);
            }
            throw CarrierFailure.unavailable(carrier + " answered HTTP " + status);
        }
    }

    /** The body as JSON; an empty object when there is none or it is not JSON (a proxy's error page, say). */
    static JsonNode parse(ObjectMapper json, String body) {
        try {
            return body == null || body.isBlank() ? json.createObjectNode() : json.readTree(body);
        } catch (IOException e) {
            return json.createObjectNode();
        }
    }
}
