package dev.voiceplane.telephony.rest;

import dev.voiceplane.kit.auth.RouteVerifier;
import dev.voiceplane.telephony.service.CarrierAnswer;
import dev.voiceplane.telephony.service.VonageWebhooks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.Optional;

/** Authenticates Vonage's webhooks by their signed JWT (see {@link VonageWebhooks#refusal}). */
@ApplicationScoped
public class VonageRequests implements RouteVerifier {

    private final VonageWebhooks webhooks;

    public VonageRequests(VonageWebhooks webhooks) {
        this.webhooks = webhooks;
    }

    @Override
    @ActivateRequestContext
    public Verdict verify(ContainerRequestContext request, byte[] body) {
        String route = request.getUriInfo().getPath();
        String authorization = request.getHeaderString("Authorization");
        Optional<CarrierAnswer> refused = webhooks.refusal(route, body, authorization);
        if (refused.isPresent()) {
            int status = refused.get().status() == 503 ? 403 : refused.get().status();
            return Verdict.refuse(status, status == 413
                    ? "request body is too large" : "the request signature is missing or does not match");
        }
        return webhooks.organisationOf(route, body, authorization).map(Verdict::acceptFor).orElseGet(Verdict::accept);
    }
}
