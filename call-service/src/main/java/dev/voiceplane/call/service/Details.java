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
    static final String SERVER_MESSAGES = "serverMessages";
    static final String VOICEMAIL_DETECTION_TYPES = "voicemailDetectionTypes";
    static final String USAGE = "usage";

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

    /** The internal part of a call's details, read into types. */
    public InternalDetails kept(Call call) {
        return InternalDetails.of(read(call).path(INTERNAL));
    }

    public ObjectNode internal(ObjectNode details) {
        return details.get(INTERNAL) instanceof ObjectNode internal ? internal : details.putObject(INTERNAL);
    }

    /**
     * Keeps, in the internal part, what later steps of the call decide with from its frozen assistant: the server
     * messages asked for, the answering-machine results that count as voicemail, whether a voicemail message is
     * left (read back through {@link #kept}, without opening the configuration).
     */
    public void keep(ObjectNode details, AssistantSettings settings) {
        ObjectNode internal = internal(details);
        internal.set(SERVER_MESSAGES, json.valueToTree(settings.serverMessages()));
        settings.voicemailDetectionTypes()
                .ifPresent(types -> internal.set(VOICEMAIL_DETECTION_TYPES, json.valueToTree(types)));
        if (settings.leavesVoicemailMessage()) {
            internal.put(Voicemails.HAS_MESSAGE, true);
        }
    }

    public void write(Call call, ObjectNode details) {
        try {
            call.details = json.writeValueAsString(details);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("call details cannot be written as JSON", e);
        }
    }
}
