package dev.voiceplane.call.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallRequest;
import dev.voiceplane.call.api.CallView;
import dev.voiceplane.call.service.CallCreation;
import dev.voiceplane.call.service.CallManagement;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.RequestBodies;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.persistence.Ids;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
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

/** {@code /call}: calls of the caller's organisation (docs/calls.md). */
@Path("/call")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CallResource {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private final CallCreation creation;
    private final CallManagement calls;
    private final CallerOrganisation caller;

    public CallResource(CallCreation creation, CallManagement calls, CallerOrganisation caller) {
        this.creation = creation;
        this.calls = calls;
        this.caller = caller;
    }

    /** Outbound when a customer (or phone number) is given, a web call otherwise. */
    @POST
    @ResponseStatus(201)
    @APIResponseSchema(value = CallView.class, responseCode = "201", responseDescription = "Created")
    public CallView create(@NotNull(message = RequestBodies.REQUIRED) @Valid CallRequest body,
            @HeaderParam(IDEMPOTENCY_KEY) String idempotencyKey) {
        return creation.create(caller.id(), CallCreation.Route.CALL, body, idempotencyKey);
    }

    @POST
    @Path("phone")
    @ResponseStatus(201)
    @APIResponseSchema(value = CallView.class, responseCode = "201", responseDescription = "Created")
    public CallView createPhone(@NotNull(message = RequestBodies.REQUIRED) @Valid CallRequest body,
            @HeaderParam(IDEMPOTENCY_KEY) String idempotencyKey) {
        return creation.create(caller.id(), CallCreation.Route.PHONE, body, idempotencyKey);
    }

    @POST
    @Path("web")
    @ResponseStatus(201)
    @APIResponseSchema(value = CallView.class, responseCode = "201", responseDescription = "Created")
    public CallView createWeb(@NotNull(message = RequestBodies.REQUIRED) @Valid CallRequest body,
            @HeaderParam(IDEMPOTENCY_KEY) String idempotencyKey) {
        return creation.create(caller.id(), CallCreation.Route.WEB, body, idempotencyKey);
    }

    @GET
    public List<CallView> list(@Context UriInfo uri) {
        return calls.list(caller.id(), ListParams.parse(uri.getQueryParameters(), CallManagement.FILTERS));
    }

    @GET
    @Path("{id}")
    public CallView get(@PathParam("id") String id) {
        return calls.get(caller.id(), Ids.existing(id, "Call"));
    }

    /** {@code name} and {@code metadata}. */
    @PATCH
    @Path("{id}")
    public CallView update(@PathParam("id") String id, @NotNull(message = RequestBodies.REQUIRED) ObjectNode body) {
        return calls.update(caller.id(), Ids.existing(id, "Call"), body);
    }

    /** Ends the call if it is live ({@code manually-canceled}), then deletes it; 200 with the record. */
    @DELETE
    @Path("{id}")
    public CallView delete(@PathParam("id") String id) {
        return calls.delete(caller.id(), Ids.existing(id, "Call"));
    }

    /** Ends a live call ({@code manually-canceled}); an ended call is returned unchanged. */
    @POST
    @Path("{id}/end")
    public CallView end(@PathParam("id") String id) {
        return calls.end(caller.id(), Ids.existing(id, "Call"));
    }
}
