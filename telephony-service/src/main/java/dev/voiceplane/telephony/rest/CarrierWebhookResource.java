package dev.voiceplane.telephony.rest;

import dev.voiceplane.kit.auth.VerifiedBy;
import dev.voiceplane.telephony.service.CarrierAnswer;
import dev.voiceplane.telephony.service.TwilioWebhooks;
import dev.voiceplane.telephony.service.VonageWebhooks;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

/**
 * The carriers' webhooks: {@code /twilio/inbound_call}, {@code /twilio/status}, {@code /twilio/amd},
 * {@code /vonage/answer}, {@code /vonage/event}. They carry the carrier's signature, not an API key; the handlers
 * verify it (see {@link TwilioWebhooks}, {@link VonageWebhooks}). Bodies are taken as raw bytes: the Twilio
 * signature covers the parameters exactly as sent, the Vonage one the body's SHA-256.
 * Each route is declared {@link VerifiedBy} its carrier's verifier, so an API key never opens it.
 */
@Path("/")
public class CarrierWebhookResource {

    private final TwilioWebhooks twilio;
    private final VonageWebhooks vonage;

    public CarrierWebhookResource(TwilioWebhooks twilio, VonageWebhooks vonage) {
        this.twilio = twilio;
        this.vonage = vonage;
    }

    @POST
    @Path("/twilio/inbound_call")
    @VerifiedBy(TwilioRequests.class)
    public Response twilioInbound(byte[] body, @HeaderParam("X-Twilio-Signature") String signature,
            @Context UriInfo uri) {
        return send(twilio.inboundCall(uri.getRequestUri().getRawQuery(), body, signature));
    }

    @POST
    @Path("/twilio/status")
    @VerifiedBy(TwilioRequests.class)
    public Response twilioStatus(byte[] body, @HeaderParam("X-Twilio-Signature") String signature,
            @Context UriInfo uri) {
        return send(twilio.status(uri.getRequestUri().getRawQuery(), body, signature));
    }

    @POST
    @Path("/twilio/amd")
    @VerifiedBy(TwilioRequests.class)
    public Response twilioMachineDetection(byte[] body, @HeaderParam("X-Twilio-Signature") String signature,
            @Context UriInfo uri) {
        return send(twilio.machineDetection(uri.getRequestUri().getRawQuery(), body, signature));
    }

    @POST
    @Path("/vonage/answer")
    @VerifiedBy(VonageRequests.class)
    public Response vonageAnswer(byte[] body, @HeaderParam("Authorization") String authorization) {
        return send(vonage.answer(body, authorization));
    }

    @POST
    @Path("/vonage/event")
    @VerifiedBy(VonageRequests.class)
    public Response vonageEvent(byte[] body, @HeaderParam("Authorization") String authorization) {
        return send(vonage.event(body, authorization));
    }

    private static Response send(CarrierAnswer answer) {
        Response.ResponseBuilder response = Response.status(answer.status());
        if (!answer.body().isEmpty()) {
            response.type(answer.contentType()).entity(answer.body());
        }
        return response.build();
    }
}
