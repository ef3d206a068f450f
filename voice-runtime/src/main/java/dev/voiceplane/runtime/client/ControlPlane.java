package dev.voiceplane.runtime.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.contracts.call.CallServiceApi;
import dev.voiceplane.contracts.call.RuntimeEvent;
import dev.voiceplane.contracts.call.RuntimeTransfer;
import dev.voiceplane.contracts.credential.CredentialKeys;
import dev.voiceplane.contracts.credential.CredentialServiceApi;
import dev.voiceplane.kit.client.Peer;
import dev.voiceplane.kit.client.PeerFailure;
import dev.voiceplane.kit.client.PeerServices;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.Credentials;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * What the runtime asks of the control plane, each through the kit's peer policy (timeouts, retries on transient
 * failures, a circuit breaker). Blocking: called from worker threads, never on a call's event loop.
 */
@ApplicationScoped
public class ControlPlane implements Credentials {

    /** Why call-service would not let the runtime attach to a call (unknown, ended, or attached already). */
    public static final class AttachRefused extends RuntimeException {
        public AttachRefused(String reason) {
            super(reason, null, false, false);
        }
    }

    private final Peer<CallServiceApi> calls;
    private final Peer<CallServiceApi> transfers;
    private final Peer<CredentialServiceApi> credentials;

    public ControlPlane(@RestClient CallServiceClient calls, @RestClient CredentialServiceClient credentials,
            PeerServices peers) {
        this.calls = peers.client(CallServiceApi.PEER, calls);
        this.transfers = peers.client("call-service-transfer", calls);
        this.credentials = peers.client(CredentialServiceApi.PEER, credentials);
    }

    /** Attaches to the call and answers its runtime configuration (docs/calls.md). */
    public JsonNode attach(String orgId, UUID callId) {
        try {
            return calls.find(api -> api.attach(orgId, callId.toString()), "so the call cannot be attached")
                    .orElseThrow(() -> new AttachRefused("call-service does not know the call"));
        } catch (PeerFailure.Rejected refused) {
            throw new AttachRefused("call-service refused the attachment: " + refused.getMessage());
        }
    }

    /**
     * Reports one event of the call. An {@code ended} event whose usage has lines that call-service refuses (400) is
     * sent again with its totals alone: a call-service of the previous release knows no lines and refuses them as an
     * unknown property, and during a rolling update the call's cost is still made from the totals it reads.
     */
    public void report(String orgId, UUID callId, RuntimeEvent event) {
        try {
            calls.call(api -> api.runtimeEvent(orgId, callId.toString(), event), "so the event cannot be reported");
        } catch (PeerFailure.Rejected refused) {
            RuntimeEvent totals = event.withoutUsageLines();
            if (totals == event || refused.status() != 400) {
                throw refused;
            }
            calls.call(api -> api.runtimeEvent(orgId, callId.toString(), totals), "so the event cannot be reported");
        }
    }

    /**
     * Gives call-service this replica's internal address for the call (docs/calls.md); answers an answering-machine
     * result that came before it, if any.
     */
    public Optional<String> registerAddress(String orgId, UUID callId, String url) {
        return calls.find(api -> api.runtimeAddress(orgId, callId.toString(), java.util.Map.of("url", url)),
                "so call-service cannot reach the call").map(answer -> answer.path("answeredBy"))
                .filter(JsonNode::isTextual).map(JsonNode::asText);
    }

    /**
     * Has call-service transfer the call's carrier call to {@code number} (docs/calls.md, "Voice runtime contract"):
     * answered once the carrier redirected it; the call is then ended {@code assistant-forwarded-call}. A refusal
     * (a web call, an ended call, the carrier's no) is a {@link PeerFailure.Rejected}; an outage another failure.
     */
    public RuntimeTransfer.Answer transfer(String orgId, UUID callId, String number) {
        return transfers.call(api -> api.transfer(orgId, callId.toString(), new RuntimeTransfer(number)),
                "so the call cannot be transferred");
    }

    /** The API key of the organisation's newest credential of {@code provider}; empty when it has none. */
    public Optional<String> apiKey(String orgId, String provider) {
        return CredentialKeys.apiKey(credentials, orgId, provider,
                "so the organisation's " + provider + " key cannot be read");
    }

    /**
     * The organisation's newest credential of {@code provider} for a call's provider: its key and the fields that are
     * not secrets ({@code region}, {@code openAIEndpoint}, {@code apiUrl}); empty when it has none.
     */
    @Override
    public Optional<Credential> find(String orgId, String provider) {
        return CredentialKeys.credential(credentials, orgId, provider,
                "so the organisation's " + provider + " key cannot be read").map(found -> {
                    java.util.Map<String, String> fields = new java.util.HashMap<>();
                    if (found.region() != null) {
                        fields.put("region", found.region());
                    }
                    if (found.openAIEndpoint() != null) {
                        fields.put("openAIEndpoint", found.openAIEndpoint());
                    }
                    if (found.apiUrl() != null) {
                        fields.put("apiUrl", found.apiUrl());
                    }
                    return new Credential(found.apiKey(), fields);
                });
    }
}
