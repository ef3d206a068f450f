package dev.voiceplane.call.client;

import dev.voiceplane.contracts.telephony.TelephonyServiceApi;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CustomerBody;
import dev.voiceplane.kit.client.PeerFailure;
import dev.voiceplane.kit.client.Peer;
import dev.voiceplane.kit.client.PeerServices;
import dev.voiceplane.contracts.telephony.InlinePhoneNumber;
import dev.voiceplane.contracts.telephony.InlineTransferRequest;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.contracts.telephony.TransferRequest;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/** telephony-service: a number's configuration, dialling, transferring and hanging up, under the kit's peer policy. */
@Startup
@ApplicationScoped
public class Telephony {

    public static final String CIRCUIT = TelephonyServiceApi.PEER;
    private static final Logger LOG = Logger.getLogger(Telephony.class);

    private final Peer<TelephonyServiceApi> telephony;
    private final ObjectMapper json;

    public Telephony(@RestClient TelephonyServiceClient api, PeerServices peers, ObjectMapper json) {
        this.telephony = peers.client(CIRCUIT, api);
        this.json = json;
    }

    /** The number's configuration; empty when the organisation has no such number; 503 when unreachable. */
    public Optional<PhoneNumberConfiguration> phoneNumber(String orgId, String id) {
        return telephony.read(api -> api.configuration(orgId, id), "so the phone number cannot be checked");
    }

    /** The carrier's answer to a dial. */
    public record Dialled(String phoneCallProvider, String phoneCallProviderId, ObjectNode phoneCallProviderDetails) {
    }

    /**
     * Where a call is dialled from: an imported number ({@code phoneNumberId}) or an inline number (its normalised
     * import body, secrets in clear: they travel only over the internal hop).
     */
    public record Line(String phoneNumberId, InlinePhoneNumber inline) {

        public static Line imported(String phoneNumberId) {
            return new Line(phoneNumberId, null);
        }

        public static Line inline(InlinePhoneNumber body) {
            return new Line(null, body);
        }

        @Override
        public String toString() {
            return phoneNumberId != null ? "Line[" + phoneNumberId + "]" : "Line[inline]";
        }
    }

    /** What became of a dial. */
    public sealed interface DialOutcome {
    }

    /** The carrier call exists (placed now, or before under the same call id). */
    public record Placed(Dialled dialled) implements DialOutcome {
    }

    /** The carrier or telephony-service refused the call as asked (4xx): asking again gets the same answer. */
    public record Refused(String reason) implements DialOutcome {
    }

    /**
     * Nothing could be placed now: telephony-service or the carrier is unavailable (503 after the peer policy's
     * retries, a timeout, an open breaker), or the call id is being dialled right now (409). The same call id may
     * be dialled again later: telephony-service's dial is idempotent per call id.
     */
    public record Unavailable(String reason) implements DialOutcome {
    }

    /** Asks telephony-service to place the call (call-contracts.md §3, or dial-inline for an inline number). */
    public DialOutcome dial(String orgId, Line line, String callId, CustomerBody customer,
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
        if (line.inline() != null) {
            request.set("phoneNumber", json.valueToTree(line.inline()));
        }
        try {
            ObjectNode answer = telephony.call(api -> line.inline() != null ? api.dialInline(orgId, request)
                    : api.dial(orgId, line.phoneNumberId(), request), "so the call cannot be placed");
            if (answer == null || !answer.path("phoneCallProviderId").isTextual()) {
                return new Refused("telephony-service answered without a carrier call id");
            }
            ObjectNode details = answer.get("phoneCallProviderDetails") instanceof ObjectNode object ? object : null;
            return new Placed(new Dialled(answer.path("phoneCallProvider").asText(null),
                    answer.path("phoneCallProviderId").asText(), details));
        } catch (PeerFailure.Rejected rejected) {
            if (rejected.status() == 409) {
                LOG.infof("call %s: being dialled elsewhere right now (409); asking again later", callId);
                return new Unavailable("409");
            }
            LOG.infof("call %s: dialling refused (%d)", callId, rejected.status());
            return new Refused(Integer.toString(rejected.status()));
        } catch (PeerFailure.NotFound gone) {
            LOG.infof("call %s: the number is gone (404)", callId);
            return new Refused("404");
        } catch (RuntimeException failed) {
            LOG.infof("call %s: dialling unavailable (%s); asking again later", callId, failed.toString());
            return new Unavailable(failed.toString());
        }
    }

    /** Why a transfer did not happen, told to whoever asked (the runtime tells the model). */
    public static final class TransferFailed extends RuntimeException {
        private final boolean mayRetry;

        TransferFailed(String reason, boolean mayRetry) {
            super(reason, null, false, false);
            this.mayRetry = mayRetry;
        }

        /** True when telephony-service or the carrier was unavailable: asking again later may work. */
        public boolean mayRetry() {
            return mayRetry;
        }
    }

    /**
     * Redirects the live carrier call to {@code number} (call-contracts.md §6, or transfer-inline for an inline
     * number). telephony-service records each carrier call's transfer once, so the peer policy's retries are safe.
     */
    public void transfer(String orgId, Line line, String phoneCallProviderId, String number) {
        try {
            telephony.call(api -> line.inline() != null
                    ? api.transferInline(orgId, new InlineTransferRequest(phoneCallProviderId, number, null))
                    : api.transfer(orgId, line.phoneNumberId(), new TransferRequest(phoneCallProviderId, number)),
                    "so the call cannot be transferred");
        } catch (PeerFailure.Rejected rejected) {
            LOG.infof("transfer of carrier call %s refused (%d)", phoneCallProviderId, rejected.status());
            throw new TransferFailed(rejected.status() == 409 ? "the call was transferred to another number already"
                    : "the carrier refused the transfer", false);
        } catch (PeerFailure.NotFound gone) {
            throw new TransferFailed("the call's phone number or carrier call is gone", false);
        } catch (RuntimeException failed) {
            LOG.infof("transfer of carrier call %s unavailable (%s)", phoneCallProviderId, failed.toString());
            throw new TransferFailed("telephony-service or the carrier is unavailable", true);
        }
    }

    /** Hangs up the carrier call; best effort (a failure is logged: the carrier ends the call at maxDuration). */
    public void hangUp(String orgId, Line line, String phoneCallProviderId) {
        ObjectNode request = json.createObjectNode().put("phoneCallProviderId", phoneCallProviderId);
        if (line.inline() != null) {
            request.set("phoneNumber", json.valueToTree(line.inline()));
        }
        try {
            telephony.call(api -> line.inline() != null ? api.hangUpInline(orgId, request)
                    : api.hangUp(orgId, line.phoneNumberId(), request), "so the call cannot be hung up");
        } catch (RuntimeException failed) {
            LOG.warnf("hanging up carrier call %s failed (%s)", phoneCallProviderId, failed.toString());
        }
    }

}
