package dev.voiceplane.telephony.carrier;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** Vonage's numbers API (rest.nexmo.com), authenticated with the API key and secret as parameters. */
@RegisterRestClient(configKey = "vonage-rest")
public interface VonageRestApi {

    @GET
    @Path("/account/numbers")
    Response ownedNumbers(@QueryParam("api_key") String apiKey, @QueryParam("api_secret") String apiSecret,
            @QueryParam("pattern") String pattern, @QueryParam("search_pattern") int searchPattern);

    @POST
    @Path("/number/update")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Response updateNumber(MultivaluedMap<String, String> form);
}
