package dev.voiceplane.telephony.client;

import dev.voiceplane.contracts.call.CallServiceApi;
import dev.voiceplane.kit.client.InternalHeaders;
import dev.voiceplane.kit.client.PeerResponses;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * call-service's internal routes ({@link CallServiceApi}) as this service calls them: the REST client is registered
 * here, by the caller, so that a service configures only the clients of the peers it calls (docs/architecture.md,
 * "Service-to-service calls").
 */
@RegisterRestClient(configKey = CallServiceApi.PEER)
@RegisterClientHeaders(InternalHeaders.class)
@RegisterProvider(PeerResponses.class)
public interface CallServiceClient extends CallServiceApi {
}
