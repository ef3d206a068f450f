package dev.voiceplane.runtime.media;

import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.error.RequestBodies;
import dev.voiceplane.kit.persistence.Ids;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * {@code /internal/runtime/call/{id}}: what call-service tells the replica that holds a call (service token and
 * {@code X-Voice-Org-Id}, as every internal route; never routed by the Ingress). A call this replica does not hold
 * for that organisation is a 404.
 */
@Path("/internal/runtime/call/{id}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class InternalCallResource {

    /** The carrier's answering-machine result ({@code machine_start}, {@code machine_end_beep}, … or {@code machine}). */
    @RegisterForReflection
    public record MachineDetected(@NotBlank @Size(max = 40) String answeredBy) {
    }

    private final HeldConversations held;
    private final CallerOrganisation caller;

    public InternalCallResource(HeldConversations held, CallerOrganisation caller) {
        this.held = held;
        this.caller = caller;
    }

    /** A machine answered: the call leaves the assistant's voicemail message after the beep (docs/voice-runtime.md). */
    @POST
    @Path("voicemail")
    public Map<String, Object> voicemail(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) @Valid MachineDetected body) {
        var callId = Ids.existing(id, "Call");
        if (!held.onCall(caller.id(), callId, conversation -> conversation.machineDetected(body.answeredBy()))) {
            throw ApiException.notFound("Call");
        }
        return Map.of("accepted", true);
    }
}
