package dev.voiceplane.telephony.rest;

import dev.voiceplane.kit.auth.RouteVerifier;
import dev.voiceplane.telephony.service.TwilioWebhook;
import dev.voiceplane.telephony.service.TwilioWebhooks;
import dev.voiceplane.telephony.service.WebhookCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.ws.rs.container.ContainerRequestContext;

/**
 * Authenticates Twilio's webhooks by {@code X-Twilio-Signature} (see {@link TwilioWebhooks#verify}) and holds what it
 * verified for the handler ({@link VerifiedWebhooks}), which does not check again.
 */
@ApplicationScoped
public class TwilioRequests implements RouteVerifier {

    private final TwilioWebhooks webhooks;
    private final VerifiedWebhooks verified;

    public TwilioRequests(TwilioWebhooks webhooks, VerifiedWebhooks verified) {
        this.webhooks = webhooks;
        this.verified = verified;
    }

    @Override
    @ActivateRequestContext
    public Verdict verify(ContainerRequestContext request, byte[] body) {
        String route = request.getUriInfo().getPath();
        String query = request.getUriInfo().getRequestUri().getRawQuery();
        return switch (webhooks.verify(route, query, body, request.getHeaderString("X-Twilio-Signature"))) {
            case WebhookCheck.Refused<TwilioWebhook> refused -> Verdict.refuse(refused.answer().status(),
                    refused.answer().status() == 413
                            ? "request body is too large" : "the request signature is missing or does not match");
            case WebhookCheck.Passed<TwilioWebhook> passed -> {
                verified.hold(passed.webhook());
                yield passed.webhook().number().map(number -> Verdict.acceptFor(number.orgId))
                        .orElseGet(Verdict::accept);
            }
        };
    }
}
