package dev.voiceplane.telephony.carrier;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * Vonage's applications API (HTTP Basic with the API key and secret) and Voice API (a JWT signed with the
 * application's private key), on api.nexmo.com. Bodies are JSON text built by {@link VonageCarrier}.
 */
@RegisterRestClient(configKey = "vonage-api")
@Consumes(MediaType.APPLICATION_JSON)
public interface VonageApi {

    @POST
    @Path("/v2/applications")
    Response createApplication(@HeaderParam("Authorization") String basic, String application);

    @DELETE
    @Path("/v2/applications/{id}")
    Response deleteApplication(@HeaderParam("Authorization") String basic, @PathParam("id") String applicationId);

    @POST
    @Path("/v1/calls")
    Response createCall(@HeaderParam("Authorization") String bearer, String call);

    @PUT
    @Path("/v1/calls/{uuid}")
    Response updateCall(@HeaderParam("Authorization") String bearer, @PathParam("uuid") String uuid, String action);
}
