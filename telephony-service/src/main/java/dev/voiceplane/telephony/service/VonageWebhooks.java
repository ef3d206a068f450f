package dev.voiceplane.telephony.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.contracts.telephony.CarrierEvent;
import dev.voiceplane.telephony.carrier.VonageCarrier;
import dev.voiceplane.telephony.carrier.VonageDocuments;
import dev.voiceplane.telephony.carrier.VonageSignature;
import dev.voiceplane.telephony.client.CredentialDirectory;
import dev.voiceplane.contracts.credential.CredentialSecret;
import dev.voiceplane.telephony.domain.PhoneNumber;
import dev.voiceplane.telephony.repository.InlineDialRepository;
import dev.voiceplane.telephony.repository.PhoneNumberRepository;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Vonage's webhooks for the applications this service creates: {@code /vonage/answer} (answered with an NCCO) and
 * {@code /vonage/event}. Both must carry a signed JWT ({@link VonageSignature}) made with the account's signature
 * secret, which is read from the number's vonage credential at credential-service ({@code signatureSecret}); a
 * credential without one cannot authenticate webhooks, so its numbers' webhooks are refused (fail closed). A
 * request is checked once ({@link #verify}: one read of its number, one question to credential-service) and the
 * handler acts on what was checked.
 */
@ApplicationScoped
public class VonageWebhooks {

    private static final Logger LOG = Logger.getLogger(VonageWebhooks.class);
    private static final String VONAGE = "vonage";
    private static final Set<String> MACHINE_RESULTS = Set.of("human", "machine");
    /** Statuses after which a call is over (Vonage's terminal event statuses: docs/call-contracts.md, 3b). */
    private static final Set<String> FINAL_STATUSES = Set.of("completed", "busy", "cancelled", "unanswered", "rejected",
            "failed", "timeout");

    private final PhoneNumberRepository numbers;
    private final InlineDialRepository inlineDials;
    private final CredentialDirectory credentials;
    private final VonageCarrier vonage;
    private final InboundCalls calls;
    private final ObjectMapper json;
    private final long maxBody;
    private final Duration tolerance;
    private final Clock clock;

    private final StreamParameters streams;

    public VonageWebhooks(PhoneNumberRepository numbers, InlineDialRepository inlineDials,
            CredentialDirectory credentials, VonageCarrier vonage, InboundCalls calls,
            ObjectMapper json, @ConfigProperty(name = "voice.carrier.max-webhook-body") MemorySize maxBody,
            @ConfigProperty(name = "voice.carrier.vonage.signature-tolerance") Duration tolerance, StreamParameters streams) {
        this.streams = streams;
        this.numbers = numbers;
        this.inlineDials = inlineDials;
        this.credentials = credentials;
        this.vonage = vonage;
        this.calls = calls;
        this.json = json;
        this.maxBody = maxBody.asLongValue();
        this.tolerance = tolerance;
        this.clock = Clock.systemUTC();
    }

    /** An answer webhook, verified here first (see {@link #verify}). */
    @ActivateRequestContext
    public CarrierAnswer answer(byte[] body, String authorization) {
        return handle(verify(WebhookAddresses.VONAGE_ANSWER, body, authorization), this::answer);
    }

    /** An event webhook, verified here first (see {@link #verify}). */
    @ActivateRequestContext
    public CarrierAnswer event(byte[] body, String authorization) {
        return handle(verify(WebhookAddresses.VONAGE_EVENT, body, authorization), this::event);
    }

    private static CarrierAnswer handle(WebhookCheck<VonageWebhook> check,
            Function<VonageWebhook, CarrierAnswer> handler) {
        return switch (check) {
            case WebhookCheck.Refused<VonageWebhook> refused -> refused.answer();
            case WebhookCheck.Passed<VonageWebhook> passed -> handler.apply(passed.webhook());
        };
    }

    /** A call to one of the numbers (verified): open it with call-service and answer with an NCCO. */
    @ActivateRequestContext
    public CarrierAnswer answer(VonageWebhook webhook) {
        JsonNode payload = webhook.payload();
        if (webhook.number().isEmpty()) {
            LOG.infof("vonage answer webhook for a number not imported here; refused (nothing created)");
            return ncco(talk(InboundCalls.UNKNOWN_NUMBER));
        }
        PhoneNumber number = webhook.number().get();
        String uuid = payload.path("uuid").asText("");
        if (uuid.isEmpty()) {
            // Signed by Vonage, yet no call can be opened from it: said no to, and logged.
            calls.dropped(number, "an answer webhook needs uuid");
            return ncco(talk(InboundCalls.REFUSAL));
        }
        InboundCalls.Decision decision = calls.open(number, uuid, "+" + payload.path("from").asText(""));
        if (!decision.connects()) {
            return ncco(talk(decision.message()));
        }
        return ncco(new VonageDocuments.Connect(null, List.of(
                VonageDocuments.WebSocket.audio(decision.streamUrl(), streams.of(number.orgId, decision.callId())))));
    }

    /** A call event (verified): becomes one call event for call-service; an inline dial's end releases its application. */
    @ActivateRequestContext
    public CarrierAnswer event(VonageWebhook webhook) {
        JsonNode payload = webhook.payload();
        boolean inbound = "inbound".equals(payload.path("direction").asText());
        PhoneNumber number = webhook.number().orElseThrow(() -> new IllegalStateException(
                "vonage " + webhook.route() + " passed verification without a number"));
        String status = payload.path("status").asText("");
        // The answering-machine event names the call call_uuid, the others uuid.
        String uuid = payload.path("uuid").asText(payload.path("call_uuid").asText(""));
        if (status.isEmpty() || uuid.isEmpty()) {
            calls.dropped(number, "an event needs status and uuid");
            return new CarrierAnswer(204, CarrierAnswer.JSON, "");
        }
        String timestamp = payload.path("timestamp").asText(null);
        boolean machine = MACHINE_RESULTS.contains(status);
        CarrierEvent event = new CarrierEvent("vonage:" + uuid + ":" + status + ":" + (timestamp == null ? "" : timestamp),
                number.inline ? number.inlineCallId : null, VONAGE, uuid, machine ? CarrierEvent.ANSWERED_BY : CarrierEvent.STATUS, machine ? null : status,
                machine ? status : null, null,
                payload.path("duration").canConvertToLong() || payload.path("duration").isTextual()
                        ? toLong(payload.path("duration").asText()) : null,
                null, timestamp, inbound ? "inbound" : "outbound");
        int outcome = calls.report(number, event);
        if (outcome == InboundCalls.RECORDED && number.inline && FINAL_STATUSES.contains(status)) {
            webhook.credential().ifPresent(credential -> releaseApplication(number, credential));
        }
        // Recorded, or dropped for good (it can never be applied): acknowledged, so Vonage stops retrying.
        return outcome / 100 == 2 ? new CarrierAnswer(204, CarrierAnswer.JSON, "")
                : CarrierAnswer.error(outcome, "try again later");
    }

    /**
     * The call dialled from an inline number has ended: the Voice application created for it is deleted with the
     * credential that verified the event (best effort: a failure is logged, and a repeated final event finds it
     * gone, which Vonage refuses harmlessly).
     */
    private void releaseApplication(PhoneNumber number, CredentialSecret credential) {
        try {
            vonage.deleteApplication(credential.apiKey(), credential.apiSecret(), number.vonageApplicationId);
        } catch (RuntimeException failure) {
            LOG.infof("vonage application %s of an ended inline dial was not deleted (%s)", number.vonageApplicationId,
                    failure.getMessage());
        }
    }

    /**
     * Checks a request to {@code route}, reading its number once and asking credential-service for its signature
     * secret once: refused when too large (413), unsigned, for a number not imported here, or with a token that does
     * not verify (403), or when credential-service cannot be asked (503, to be retried); otherwise passed on with
     * what was checked. An answer webhook for an unknown number is not refused here (it gets a spoken refusal). The
     * route verifier calls this and hands the webhook to the handler; the entry points that take a raw request call
     * it too.
     */
    public WebhookCheck<VonageWebhook> verify(String route, byte[] body, String authorization) {
        if (body.length > maxBody) {
            LOG.warnf("vonage %s: body of %d bytes refused (at most %d)", route, body.length, maxBody);
            return new WebhookCheck.Refused<>(
                    CarrierAnswer.error(413, "request body is too large (at most " + maxBody + " bytes)"));
        }
        if (VonageSignature.bearer(authorization) == null) {
            return refuse(route, "no signed JWT");
        }
        JsonNode payload = parse(body);
        Optional<PhoneNumber> number = numberFor(route, payload, authorization);
        if (number.isEmpty()) {
            return route.equals(WebhookAddresses.VONAGE_ANSWER)
                    ? new WebhookCheck.Passed<>(new VonageWebhook(route, payload, number, Optional.empty()))
                    : refuse(route, "not for a number imported here");
        }
        Optional<CredentialSecret> credential;
        try {
            credential = credentials.secret(number.get().orgId, number.get().credentialId);
        } catch (RuntimeException unavailable) {
            LOG.warnf("vonage %s: credential-service cannot be asked for phone number %s; try again", route,
                    number.get().id);
            return new WebhookCheck.Refused<>(CarrierAnswer.error(503, "try again later"));
        }
        String secret = credential.map(CredentialSecret::signatureSecret).orElse(null);
        if (secret == null || secret.isEmpty()) {
            return refuse(route, "phone number " + number.get().id + " has no signature secret in its vonage credential");
        }
        VonageSignature.Verdict verdict = VonageSignature.verify(VonageSignature.bearer(authorization), secret, body,
                clock.instant(), tolerance);
        if (verdict != VonageSignature.Verdict.VALID) {
            return refuse(route, "signature check " + verdict + " for phone number " + number.get().id);
        }
        return new WebhookCheck.Passed<>(new VonageWebhook(route, payload, number, credential));
    }

    /** Our number: the called one on answer webhooks and inbound events, the caller on calls we placed. */
    private Optional<PhoneNumber> numberFor(String route, JsonNode payload, String authorization) {
        boolean inbound = route.equals(WebhookAddresses.VONAGE_ANSWER)
                || "inbound".equals(payload.path("direction").asText());
        Optional<PhoneNumber> imported = resolve(authorization, payload.path(inbound ? "to" : "from").asText(""));
        return imported.isPresent() || inbound ? imported : inlineDial(authorization);
    }

    /** A call dialled from an inline number: the (not yet verified) token names the application created for it. */
    private Optional<PhoneNumber> inlineDial(String authorization) {
        String token = VonageSignature.bearer(authorization);
        Optional<JsonNode> claims = token == null ? Optional.empty() : VonageSignature.unverifiedClaims(token);
        String apiKey = claims.map(claim -> claim.path("api_key").asText("")).orElse("");
        String application = claims.map(claim -> claim.path("application_id").asText("")).orElse("");
        return apiKey.isEmpty() || application.isEmpty()
                ? Optional.empty()
                : inlineDials.findByApplication(apiKey, application);
    }

    /** The number the (not yet verified) token's api_key and the payload's number name. */
    private Optional<PhoneNumber> resolve(String authorization, String msisdn) {
        String token = VonageSignature.bearer(authorization);
        if (token == null || msisdn.isEmpty()) {
            return Optional.empty();
        }
        String apiKey = VonageSignature.unverifiedClaims(token).map(claims -> claims.path("api_key").asText(""))
                .orElse("");
        if (apiKey.isEmpty()) {
            return Optional.empty();
        }
        String e164 = msisdn.startsWith("+") ? msisdn : "+" + msisdn;
        return numbers.findForWebhook(VONAGE, apiKey, e164);
    }

    private static WebhookCheck<VonageWebhook> refuse(String route, String why) {
        LOG.warnf("vonage %s: refused: %s", route, why);
        return new WebhookCheck.Refused<>(TwilioWebhooks.forbidden());
    }

    private JsonNode parse(byte[] body) {
        try {
            JsonNode node = body.length == 0 ? null : json.readTree(body);
            return node != null && node.isObject() ? node : json.createObjectNode();
        } catch (IOException e) {
            return json.createObjectNode();
        }
    }

    private static VonageDocuments.Talk talk(String message) {
        return new VonageDocuments.Talk(message);
    }

    /** An NCCO of one action. */
    private CarrierAnswer ncco(VonageDocuments.Action action) {
        try {
            return new CarrierAnswer(200, CarrierAnswer.JSON, json.writeValueAsString(List.of(action)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an NCCO of records is always written", e);
        }
    }

    private static Long toLong(String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
