package dev.voiceplane.call.client;

import dev.voiceplane.contracts.telephony.TelephonyServiceApi;
import dev.voiceplane.kit.client.InternalHeaders;
import dev.voiceplane.kit.client.PeerResponses;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * telephony-service's internal routes ({@link TelephonyServiceApi}) as this service calls them: the REST client is
 * registered here, by the caller, so that a service configures only the clients of the peers it calls
 * (docs/architecture.md, "Service-to-service calls").
 */
@RegisterRestClient(configKey = TelephonyServiceApi.PEER)
@RegisterClientHeaders(InternalHeaders.class)
@RegisterProvider(PeerResponses.class)
public interface TelephonyServiceClient extends TelephonyServiceApi {
}
