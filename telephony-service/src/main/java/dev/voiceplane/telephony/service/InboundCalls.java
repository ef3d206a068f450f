package dev.voiceplane.telephony.service;

import dev.voiceplane.kit.client.PeerFailure;
import dev.voiceplane.contracts.telephony.CarrierEvent;
import dev.voiceplane.contracts.telephony.Customer;
import dev.voiceplane.contracts.telephony.InboundCallAnswer;
import dev.voiceplane.contracts.telephony.InboundCallRequest;
import dev.voiceplane.telephony.client.CallRegistry;
import dev.voiceplane.telephony.domain.PhoneNumber;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * What both carriers' webhooks share once the request is verified: open an inbound call with call-service and
 * decide what the carrier is told; hand carrier events to call-service. Carrier-neutral; the carrier's document
 * (TwiML, NCCO) is written by its webhook class.
 */
@ApplicationScoped
public class InboundCalls {

    private static final Logger LOG = Logger.getLogger(InboundCalls.class);

    /** Said when nothing better is known; short, since the caller is waiting. */
    public static final String REFUSAL = "Sorry, this number cannot take your call right now. Goodbye.";
    public static final String UNKNOWN_NUMBER = "Sorry, this number is not in service. Goodbye.";

    /** The outcome of an inbound call: stream to the runtime (with the call id), or say something and hang up. */
    public record Decision(String callId, String streamUrl, String message) {
        public boolean connects() {
            return streamUrl != null;
        }
    }

    /** What {@link #report} answers for an event that was recorded, or is for a call call-service does not know. */
    public static final int RECORDED = 200;
    /** What {@link #report} answers for a signed event that can never be applied: acknowledged, logged, dropped. */
    public static final int DROPPED = 202;

    private final CallRegistry calls;
    private final PhoneNumberService numbers;
    private final WebhookContents contents;
    private final Optional<String> streamUrl;

    public InboundCalls(CallRegistry calls, PhoneNumberService numbers, WebhookContents contents,
            @ConfigProperty(name = "voice.runtime.stream-url") Optional<String> streamUrl) {
        this.calls = calls;
        this.numbers = numbers;
        this.contents = contents;
        this.streamUrl = streamUrl.filter(url -> !url.isBlank());
    }

    /**
     * Asks call-service to open the call (idempotent on the carrier's call id, so a retried webhook gets the same
     * call and answer). Without a configured runtime no call is opened: that is a deployment fault, not a call.
     */
    public Decision open(PhoneNumber number, String carrierCallId, String from) {
        InboundCallRequest request = new InboundCallRequest(number.carrier, carrierCallId, "pstn", new Customer(from),
                numbers.configuration(number));
        Optional<String> malformed = contents.problem(request);
        if (malformed.isPresent()) {
            // Signed, but call-service could never take it: refused politely without asking (nothing to retry).
            // Checked first, so that no log line below carries a 60,000-character or control-character call id.
            LOG.warnf("inbound call to phone number %s refused: the carrier's webhook cannot be applied (%s)",
                    number.id, malformed.get());
            return new Decision(null, null, REFUSAL);
        }
        if (streamUrl.isEmpty()) {
            LOG.warnf("inbound call %s to phone number %s refused: VOICE_RUNTIME_STREAM_URL is not configured",
                    carrierCallId, number.id);
            return new Decision(null, null, REFUSAL);
        }
        InboundCallAnswer answer;
        try {
            answer = calls.openInbound(number.orgId, request);
        } catch (RuntimeException failure) {
            LOG.warnf("inbound call %s to phone number %s refused: call-service did not open it (%s)", carrierCallId,
                    number.id, failure.getClass().getSimpleName());
            return new Decision(null, null, REFUSAL);
        }
        if (answer != null && answer.connects()) {
            return new Decision(answer.callId(), streamUrl.get(), null);
        }
        String message = answer != null && answer.message() != null && !answer.message().isBlank()
                ? answer.message()
                : REFUSAL;
        return new Decision(answer == null ? null : answer.callId(), null, message);
    }

    /**
     * Hands an event to call-service: {@link #RECORDED} when recorded (or for a call it does not know),
     * {@link #DROPPED} when the event can never be applied (checked here first, or refused by call-service with a
     * 4xx: asking again gets the same answer, so the carrier is told to stop), 503 to be retried.
     */
    public int report(PhoneNumber number, CarrierEvent event) {
        Optional<String> malformed = contents.problem(event);
        if (malformed.isPresent()) {
            return dropped(number, malformed.get());
        }
        try {
            calls.report(number.orgId, event);
            return RECORDED;
        } catch (PeerFailure.NotFound unknownCall) {
            LOG.infof("call-service knows no call %s for event %s; dropped", event.phoneCallProviderId(), event.eventId());
            return RECORDED;
        } catch (PeerFailure.Rejected refused) {
            return dropped(number, "call-service refused it with " + refused.status());
        } catch (RuntimeException failure) {
            LOG.warnf("event %s could not be handed to call-service (%s); the carrier is asked to retry",
                    event.eventId(), failure.getClass().getSimpleName());
            return 503;
        }
    }

    /** A signed webhook about one of our numbers that can never be applied: logged (never its values) and dropped. */
    public int dropped(PhoneNumber number, String why) {
        LOG.warnf("a carrier webhook for phone number %s (org %s) cannot be applied (%s); acknowledged so that the"
                + " carrier stops retrying, and dropped", number.id, number.orgId, why);
        return DROPPED;
    }
}
