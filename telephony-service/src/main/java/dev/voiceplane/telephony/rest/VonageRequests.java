package dev.voiceplane.telephony.rest;

import dev.voiceplane.kit.auth.RouteVerifier;
import dev.voiceplane.telephony.service.VonageWebhook;
import dev.voiceplane.telephony.service.VonageWebhooks;
import dev.voiceplane.telephony.service.WebhookCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.ws.rs.container.ContainerRequestContext;

/**
 * Authenticates Vonage's webhooks by their signed JWT (see {@link VonageWebhooks#verify}) and holds what it verified
 * for the handler ({@link VerifiedWebhooks}), which does not check again.
 */
@ApplicationScoped
public class VonageRequests implements RouteVerifier {

    private final VonageWebhooks webhooks;
    private final VerifiedWebhooks verified;

    public VonageRequests(VonageWebhooks webhooks, VerifiedWebhooks verified) {
        this.webhooks = webhooks;
        this.verified = verified;
    }

    @Override
    @ActivateRequestContext
    public Verdict verify(ContainerRequestContext request, byte[] body) {
        String route = request.getUriInfo().getPath();
        return switch (webhooks.verify(route, body, request.getHeaderString("Authorization"))) {
            case WebhookCheck.Refused<VonageWebhook> refused -> {
                // A verifier refuses with a 4xx: credential-service being unreachable (503) is a refusal here too.
                int status = refused.answer().status() == 503 ? 403 : refused.answer().status();
                yield Verdict.refuse(status, status == 413
                        ? "request body is too large" : "the request signature is missing or does not match");
            }
            case WebhookCheck.Passed<VonageWebhook> passed -> {
                verified.hold(passed.webhook());
                yield passed.webhook().number().map(number -> Verdict.acceptFor(number.orgId))
                        .orElseGet(Verdict::accept);
            }
        };
    }
}
