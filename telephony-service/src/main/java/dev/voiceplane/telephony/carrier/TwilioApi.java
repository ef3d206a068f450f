package dev.voiceplane.telephony.carrier;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The four calls of Twilio's REST API (2010-04-01) this service makes, HTTP Basic with the account SID and auth
 * token, form-encoded bodies. Answers are taken as they come (status and body); {@link TwilioCarrier} reads them.
 */
@RegisterRestClient(configKey = "twilio")
@Path("/2010-04-01/Accounts/{account}")
public interface TwilioApi {

    @GET
    @Path("IncomingPhoneNumbers.json")
    Response findNumber(@HeaderParam("Authorization") String authorization, @PathParam("account") String account,
            @QueryParam("PhoneNumber") String number);

    @POST
    @Path("IncomingPhoneNumbers/{sid}.json")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Response updateNumber(@HeaderParam("Authorization") String authorization, @PathParam("account") String account,
            @PathParam("sid") String numberSid, MultivaluedMap<String, String> form);

    @POST
    @Path("Calls.json")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Response createCall(@HeaderParam("Authorization") String authorization, @PathParam("account") String account,
            MultivaluedMap<String, String> form);

    @POST
    @Path("Calls/{sid}.json")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    Response updateCall(@HeaderParam("Authorization") String authorization, @PathParam("account") String account,
            @PathParam("sid") String callSid, MultivaluedMap<String, String> form);
}
