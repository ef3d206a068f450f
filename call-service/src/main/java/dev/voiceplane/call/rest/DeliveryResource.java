package dev.voiceplane.call.rest;

import dev.voiceplane.call.api.DeliveryView;
import dev.voiceplane.call.api.WebhookSecretRotation;
import dev.voiceplane.call.api.WebhookSecretView;
import dev.voiceplane.call.delivery.DeliveryLog;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.kit.error.RequestBodies;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * Server-message delivery as the customer sees it (docs/webhooks.md): a call's delivery log, redelivery of a
 * dead-lettered message, and the organisation's Standard Webhooks signing secret (read, rotate).
 */
@Path("/call")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class DeliveryResource {

    private final DeliveryLog deliveries;
    private final CallerOrganisation caller;

    public DeliveryResource(DeliveryLog deliveries, CallerOrganisation caller) {
        this.deliveries = deliveries;
        this.caller = caller;
    }

    /** Every server message of the call in order, each with its attempts. */
    @GET
    @Path("{id}/deliveries")
    public List<DeliveryView> deliveries(@PathParam("id") String id) {
        return deliveries.ofCall(caller.id(), Ids.existing(id, "Call"));
    }

    /** Sends a dead-lettered message again (a fresh retry schedule; same {@code webhook-id}). */
    @POST
    @Path("deliveries/{id}/redeliver")
    public DeliveryView redeliver(@PathParam("id") String id) {
        return deliveries.redeliver(caller.id(), Ids.existing(id, "Delivery"));
    }

    /** The signing secret receivers verify {@code webhook-signature} with (created on first use). */
    @GET
    @Path("webhook-secret")
    public WebhookSecretView secret() {
        return deliveries.secret(caller.id());
    }

    /** A new signing secret; the old one keeps signing next to it for {@code overlapSeconds} (default 24 h). */
    @POST
    @Path("webhook-secret/rotate")
    public WebhookSecretView rotate(@NotNull(message = RequestBodies.REQUIRED) @Valid WebhookSecretRotation body) {
        return deliveries.rotate(caller.id(), body.overlapSeconds());
    }
}
