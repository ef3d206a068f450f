package dev.voiceplane.telephony.rest;

import dev.voiceplane.kit.auth.RouteVerifier;
import dev.voiceplane.telephony.service.CarrierAnswer;
import dev.voiceplane.telephony.service.TwilioWebhooks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.Optional;

/** Authenticates Twilio's webhooks by {@code X-Twilio-Signature} (see {@link TwilioWebhooks#refusal}). */
@ApplicationScoped
public class TwilioRequests implements RouteVerifier {

    private final TwilioWebhooks webhooks;

    public TwilioRequests(TwilioWebhooks webhooks) {
        this.webhooks = webhooks;
    }

    @Override
    @ActivateRequestContext
    public Verdict verify(ContainerRequestContext request, byte[] body) {
        String route = request.getUriInfo().getPath();
        String query = request.getUriInfo().getRequestUri().getRawQuery();
        Optional<CarrierAnswer> refused = webhooks.refusal(route, query, body,
                request.getHeaderString("X-Twilio-Signature"));
        if (refused.isPresent()) {
            return Verdict.refuse(refused.get().status(), refused.get().status() == 413
                    ? "request body is too large" : "the request signature is missing or does not match");
        }
        return webhooks.organisationOf(route, query, body).map(Verdict::acceptFor).orElseGet(Verdict::accept);
    }
}
