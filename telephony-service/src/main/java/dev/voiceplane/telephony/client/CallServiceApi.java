package dev.voiceplane.telephony.client;

import dev.voiceplane.kit.auth.Authentication;
import dev.voiceplane.kit.client.InternalHeaders;
import dev.voiceplane.kit.client.PeerResponses;
import dev.voiceplane.contracts.telephony.CarrierEvent;
import dev.voiceplane.contracts.telephony.EventReceipt;
import dev.voiceplane.contracts.telephony.InboundCallAnswer;
import dev.voiceplane.contracts.telephony.InboundCallRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** call-service's internal routes for telephony-service (docs/call-contracts.md); use them through {@link CallRegistry}. */
@RegisterRestClient(configKey = "call-service")
@RegisterClientHeaders(InternalHeaders.class)
@RegisterProvider(PeerResponses.class)
@Path("/internal/call")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface CallServiceApi {

    @POST
    @Path("inbound")
    InboundCallAnswer openInbound(@HeaderParam(Authentication.ORG_HEADER) String orgId, InboundCallRequest request);

    @POST
    @Path("events")
    EventReceipt report(@HeaderParam(Authentication.ORG_HEADER) String orgId, CarrierEvent event);
}
