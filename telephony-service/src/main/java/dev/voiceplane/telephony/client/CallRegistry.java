package dev.voiceplane.telephony.client;

import dev.voiceplane.contracts.call.CallServiceApi;
import dev.voiceplane.kit.client.Peer;
import dev.voiceplane.kit.client.PeerServices;
import dev.voiceplane.contracts.telephony.CarrierEvent;
import dev.voiceplane.contracts.telephony.EventReceipt;
import dev.voiceplane.contracts.telephony.InboundCallAnswer;
import dev.voiceplane.contracts.telephony.InboundCallRequest;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * call-service as telephony-service reaches it, under the kit's peer policy (timeouts in application.properties,
 * {@code voice.peer.call-service.*}, kept well inside a carrier's wait for an answer). Both calls are idempotent on
 * call-service's side (by carrier call id, by event id), so the policy's retries are safe.
 */
@Startup
@ApplicationScoped
public class CallRegistry {

    public static final String PEER = CallServiceApi.PEER;

    private final Peer<CallServiceApi> calls;

    public CallRegistry(@RestClient CallServiceClient api, PeerServices peers) {
        this.calls = peers.client(PEER, api);
    }

    public InboundCallAnswer openInbound(String orgId, InboundCallRequest request) {
        return calls.call(api -> api.openInbound(orgId, request), "so the inbound call cannot be opened");
    }

    /** Throws {@code PeerFailure.NotFound} when call-service knows no such call. */
    public EventReceipt report(String orgId, CarrierEvent event) {
        return calls.call(api -> api.report(orgId, event), "so the call event cannot be recorded");
    }
}
