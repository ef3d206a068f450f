package dev.voiceplane.call.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CustomerBody;
import dev.voiceplane.kit.client.PeerFailure;
import dev.voiceplane.kit.client.PeerService;
import dev.voiceplane.kit.client.PeerServices;
import dev.voiceplane.kit.contract.telephony.PhoneNumberConfiguration;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/** telephony-service: a number's configuration, dialling and hanging up, under the kit's peer policy. */
@Startup
@ApplicationScoped
public class Telephony {

    public static final String CIRCUIT = "telephony-service";
    private static final Logger LOG = Logger.getLogger(Telephony.class);

    private final TelephonyServiceApi api;
    private final PeerService peer;
    private final ObjectMapper json;

    public Telephony(@RestClient TelephonyServiceApi api, PeerServices peers, ObjectMapper json) {
        this.api = api;
        this.peer = peers.named(CIRCUIT);
        this.json = json;
    }

    /** The number's configuration; empty when the organisation has no such number; 503 when unreachable. */
    public Optional<PhoneNumberConfiguration> phoneNumber(String orgId, String id) {
        String consequence = "so the phone number cannot be checked";
        try {
            return peer.find(() -> api.configuration(orgId, id), consequence);
        } catch (PeerFailure.Rejected refused) {
            throw peer.unavailable(consequence);
        }
    }

    /** The carrier's answer to a dial. */
    public record Dialled(String phoneCallProvider, String phoneCallProviderId, ObjectNode phoneCallProviderDetails) {
    }

    /**
     * Asks telephony-service to place the call; empty when the carrier (or telephony-service) refused it or could
     * not be reached: the call then ends as failed to connect, as the hosted platform does.
     */
    public Optional<Dialled> dial(String orgId, String phoneNumberId, String callId, CustomerBody customer,
            ObjectNode voicemailDetection, int maxDurationSeconds) {
        ObjectNode request = json.createObjectNode().put("callId", callId);
        ObjectNode to = request.putObject("customer").put("number", customer.number());
        if (customer.extension() != null && !customer.extension().isEmpty()) {
            to.put("extension", customer.extension());
        }
        if (voicemailDetection != null) {
            request.set("voicemailDetection", voicemailDetection);
        }
        request.put("maxDurationSeconds", maxDurationSeconds);
        try {
            ObjectNode answer = peer.call(() -> api.dial(orgId, phoneNumberId, request), "so the call cannot be placed");
            if (answer == null || !answer.path("phoneCallProviderId").isTextual()) {
                return Optional.empty();
            }
            ObjectNode details = answer.get("phoneCallProviderDetails") instanceof ObjectNode object ? object : null;
            return Optional.of(new Dialled(answer.path("phoneCallProvider").asText(null),
                    answer.path("phoneCallProviderId").asText(), details));
        } catch (RuntimeException failed) {
            LOG.infof("call %s: dialling refused or failed (%s)", callId, failed.toString());
            return Optional.empty();
        }
    }

    /** Hangs up the carrier call; best effort (a failure is logged: the carrier ends the call at maxDuration). */
    public void hangUp(String orgId, String phoneNumberId, String phoneCallProviderId) {
        ObjectNode request = json.createObjectNode().put("phoneCallProviderId", phoneCallProviderId);
        try {
            peer.call(() -> api.hangUp(orgId, phoneNumberId, request), "so the call cannot be hung up");
        } catch (RuntimeException failed) {
            LOG.warnf("hanging up carrier call %s failed (%s)", phoneCallProviderId, failed.toString());
        }
    }

}
