package dev.voiceplane.telephony.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.RequestBodies;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.telephony.api.PhoneNumberRequest;
import dev.voiceplane.telephony.api.PhoneNumberView;
import dev.voiceplane.telephony.domain.Carrier;
import dev.voiceplane.telephony.service.PhoneNumberService;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.jboss.resteasy.reactive.ResponseStatus;

/** {@code /phone-number}: numbers of the caller's organisation, imported from twilio or vonage. */
@Path("/phone-number")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class PhoneNumberResource {

    private final PhoneNumberService numbers;
    private final CallerOrganisation caller;

    public PhoneNumberResource(PhoneNumberService numbers, CallerOrganisation caller) {
        this.numbers = numbers;
        this.caller = caller;
    }

    /** {@code twilio} and {@code vonage}, and the interface document's {@code carrierA} and {@code carrierB}. */
    @POST
    @Path("import/{carrier: twilio|vonage|carrierA|carrierB}")
    @ResponseStatus(201)
    @APIResponseSchema(value = PhoneNumberView.class, responseCode = "201", responseDescription = "Created")
    public PhoneNumberView importNumber(@PathParam("carrier") String carrier,
            @NotNull(message = RequestBodies.REQUIRED) @Valid PhoneNumberRequest body) {
        return numbers.create(caller.id(), Carrier.of(carrier), body);
    }

    /** The later API's create: the carrier is the body's {@code provider}. */
    @POST
    @ResponseStatus(201)
    @APIResponseSchema(value = PhoneNumberView.class, responseCode = "201", responseDescription = "Created")
    public PhoneNumberView create(@NotNull(message = RequestBodies.REQUIRED) @Valid PhoneNumberRequest body) {
        return numbers.create(caller.id(), null, body);
    }

    @GET
    public List<PhoneNumberView> list(@Context UriInfo uri) {
        return numbers.list(caller.id(), ListParams.parse(uri.getQueryParameters()));
    }

    @GET
    @Path("{id}")
    public PhoneNumberView get(@PathParam("id") String id) {
        return numbers.get(caller.id(), Ids.existing(id, "Phone number"));
    }

    /** {@code name}, {@code assistantId}, {@code serverUrl}, {@code serverUrlSecret}; {@code null} clears. */
    @PATCH
    @Path("{id}")
    public PhoneNumberView update(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) ObjectNode body) {
        return numbers.update(caller.id(), Ids.existing(id, "Phone number"), body);
    }

    @DELETE
    @Path("{id}")
    public PhoneNumberView delete(@PathParam("id") String id) {
        return numbers.delete(caller.id(), Ids.existing(id, "Phone number"));
    }
}
