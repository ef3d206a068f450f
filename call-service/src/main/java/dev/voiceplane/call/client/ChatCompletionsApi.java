package dev.voiceplane.call.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.client.PeerResponses;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * An OpenAI-compatible chat API at {@code VOICE_OPENAI_API_URL}. Not an internal route: no service token is sent,
 * only the organisation's own key.
 */
@RegisterRestClient(configKey = "openai")
@RegisterProvider(PeerResponses.class)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface ChatCompletionsApi {

    @POST
    @Path("chat/completions")
    ObjectNode complete(@HeaderParam("Authorization") String authorization, ObjectNode request);
}
