package dev.voiceplane.telephony.rest;

import dev.voiceplane.kit.auth.VerifiedBy;
import dev.voiceplane.telephony.service.CarrierAnswer;
import dev.voiceplane.telephony.service.TwilioWebhook;
import dev.voiceplane.telephony.service.TwilioWebhooks;
import dev.voiceplane.telephony.service.VonageWebhook;
import dev.voiceplane.telephony.service.VonageWebhooks;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The carriers' webhooks: {@code /twilio/inbound_call}, {@code /twilio/status}, {@code /twilio/amd},
 * {@code /vonage/answer}, {@code /vonage/event}. They carry the carrier's signature, not an API key: each route is
 * declared {@link VerifiedBy} its carrier's verifier ({@link TwilioRequests}, {@link VonageRequests}), so an API key
 * never opens it, and the verifier checks the signature once, over the body's exact bytes (the Twilio signature
 * covers the parameters exactly as sent, the Vonage one the body's SHA-256). The handler gets what was verified
 * ({@link VerifiedWebhooks}): the number, its secret, the parsed parameters. The body is still declared, so the kit
 * reads it as every body is read (a JSON body it refuses is a 400).
 */
@Path("/")
public class CarrierWebhookResource {

    /** Read by the verifier (TwilioRequests), declared here so that the API document names it. */
    private static final String TWILIO_SIGNATURE = "X-Twilio-Signature";

    private final TwilioWebhooks twilio;
    private final VonageWebhooks vonage;
    private final VerifiedWebhooks verified;

    public CarrierWebhookResource(TwilioWebhooks twilio, VonageWebhooks vonage, VerifiedWebhooks verified) {
        this.twilio = twilio;
        this.vonage = vonage;
        this.verified = verified;
    }

    @POST
    @Path("/twilio/inbound_call")
    @VerifiedBy(TwilioRequests.class)
    @Parameter(name = TWILIO_SIGNATURE, in = ParameterIn.HEADER, schema = @Schema(type = SchemaType.STRING))
    public Response twilioInbound(byte[] body) {
        return send(twilio.inboundCall(verified.take(TwilioWebhook.class)));
    }

    @POST
    @Path("/twilio/status")
    @VerifiedBy(TwilioRequests.class)
    @Parameter(name = TWILIO_SIGNATURE, in = ParameterIn.HEADER, schema = @Schema(type = SchemaType.STRING))
    public Response twilioStatus(byte[] body) {
        return send(twilio.status(verified.take(TwilioWebhook.class)));
    }

    @POST
    @Path("/twilio/amd")
    @VerifiedBy(TwilioRequests.class)
    @Parameter(name = TWILIO_SIGNATURE, in = ParameterIn.HEADER, schema = @Schema(type = SchemaType.STRING))
    public Response twilioMachineDetection(byte[] body) {
        return send(twilio.machineDetection(verified.take(TwilioWebhook.class)));
    }

    @POST
    @Path("/vonage/answer")
    @VerifiedBy(VonageRequests.class)
    public Response vonageAnswer(byte[] body) {
        return send(vonage.answer(verified.take(VonageWebhook.class)));
    }

    @POST
    @Path("/vonage/event")
    @VerifiedBy(VonageRequests.class)
    public Response vonageEvent(byte[] body) {
        return send(vonage.event(verified.take(VonageWebhook.class)));
    }

    private static Response send(CarrierAnswer answer) {
        Response.ResponseBuilder response = Response.status(answer.status());
        if (!answer.body().isEmpty()) {
            response.type(answer.contentType()).entity(answer.body());
        }
        return response.build();
    }
}
