package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.domain.Call;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The small JSON of a call row: wire fields (customer, metadata, webCallUrl, phoneCallProviderDetails,
 * costBreakdown, analysis, recordingUrl, stereoRecordingUrl, forwardedPhoneNumber) and, under
 * {@value #INTERNAL}, what only this service reads (the server messages asked for, usage, the analysis plan).
 */
@ApplicationScoped
public class Details {

    public static final String INTERNAL = "internal";

    private final ObjectMapper json;

    public Details(ObjectMapper json) {
        this.json = json;
    }

    public ObjectNode read(Call call) {
        try {
            return (ObjectNode) json.readTree(call.details);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("the details of call " + call.id + " are not a JSON object", e);
        }
    }

    public ObjectNode internal(ObjectNode details) {
        return details.get(INTERNAL) instanceof ObjectNode internal ? internal : details.putObject(INTERNAL);
    }

    public void write(Call call, ObjectNode details) {
        try {
            call.details = json.writeValueAsString(details);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("call details cannot be written as JSON", e);
        }
    }
}
