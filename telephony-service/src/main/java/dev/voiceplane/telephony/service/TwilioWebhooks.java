package dev.voiceplane.telephony.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.contracts.telephony.CarrierEvent;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.telephony.carrier.FormBody;
import dev.voiceplane.telephony.carrier.TwiML;
import dev.voiceplane.telephony.carrier.TwilioSignature;
import dev.voiceplane.telephony.domain.PhoneNumber;
import dev.voiceplane.telephony.repository.InlineDialRepository;
import dev.voiceplane.telephony.repository.PhoneNumberRepository;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import java.io.IOException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Twilio's webhooks: the voice URL of every imported number ({@code /twilio/inbound_call}), the status callback
 * ({@code /twilio/status}) and the asynchronous answering-machine result ({@code /twilio/amd}). Each is
 * authenticated by {@code X-Twilio-Signature} with the auth token of the number it is about, over the public URL
 * Twilio was given; a missing or wrong signature is a 403 and nothing happens. Oversized bodies are a 413.
 * Log lines name the number and the check that failed, never a token or a signature. A request is checked once
 * ({@link #verify}: one read of its number, one opening of the token) and the handler acts on what was checked.
 */
@ApplicationScoped
public class TwilioWebhooks {

    private static final Logger LOG = Logger.getLogger(TwilioWebhooks.class);
    private static final String TWILIO = "twilio";

    private final PhoneNumberRepository numbers;
    private final InlineDialRepository inlineDials;
    private final Secrets secrets;
    private final InboundCalls calls;
    private final WebhookAddresses addresses;
    private final long maxBody;
    private final ObjectMapper json;

    private final StreamParameters streams;

    public TwilioWebhooks(PhoneNumberRepository numbers, InlineDialRepository inlineDials, Secrets secrets, InboundCalls calls,
            WebhookAddresses addresses, ObjectMapper json,
            @ConfigProperty(name = "voice.carrier.max-webhook-body") MemorySize maxBody, StreamParameters streams) {
        this.streams = streams;
        this.json = json;
        this.numbers = numbers;
        this.inlineDials = inlineDials;
        this.secrets = secrets;
        this.calls = calls;
        this.addresses = addresses;
        this.maxBody = maxBody.asLongValue();
    }

    /** A call to one of the numbers, verified here first (see {@link #verify}). */
    @ActivateRequestContext
    public CarrierAnswer inboundCall(String rawQuery, byte[] body, String signature) {
        return handle(verify(WebhookAddresses.TWILIO_INBOUND, rawQuery, body, signature), this::inboundCall);
    }

    /** A status callback, verified here first (see {@link #verify}). */
    @ActivateRequestContext
    public CarrierAnswer status(String rawQuery, byte[] body, String signature) {
        return handle(verify(WebhookAddresses.TWILIO_STATUS, rawQuery, body, signature), this::status);
    }

    /** An answering-machine result, verified here first (see {@link #verify}). */
    @ActivateRequestContext
    public CarrierAnswer machineDetection(String rawQuery, byte[] body, String signature) {
        return handle(verify(WebhookAddresses.TWILIO_AMD, rawQuery, body, signature), this::machineDetection);
    }

    private static CarrierAnswer handle(WebhookCheck<TwilioWebhook> check,
            Function<TwilioWebhook, CarrierAnswer> handler) {
        return switch (check) {
            case WebhookCheck.Refused<TwilioWebhook> refused -> refused.answer();
            case WebhookCheck.Passed<TwilioWebhook> passed -> handler.apply(passed.webhook());
        };
    }

    /** A call to one of the numbers: open it with call-service and answer with TwiML. */
    @ActivateRequestContext
    public CarrierAnswer inboundCall(TwilioWebhook webhook) {
        if (webhook.number().isEmpty()) {
            // Nothing to verify the request with, and nothing is created: a polite refusal tells a caller enough.
            LOG.infof("twilio inbound call for a number not imported here; refused (nothing created)");
            return twiml(TwiML.sayAndHangUp(InboundCalls.UNKNOWN_NUMBER));
        }
        PhoneNumber number = webhook.number().get();
        String callSid = webhook.param("CallSid");
        if (callSid == null || callSid.isBlank() || !"ringing".equals(webhook.param("CallStatus"))
                || !"inbound".equals(webhook.param("Direction"))) {
            return CarrierAnswer.error(400, "an inbound call needs CallSid, CallStatus ringing and Direction inbound");
        }
        InboundCalls.Decision decision = calls.open(number, callSid, webhook.param("From"));
        return twiml(decision.connects()
                ? TwiML.connectStream(decision.streamUrl(), streams.of(number.orgId, decision.callId()))
                : TwiML.sayAndHangUp(decision.message()));
    }

    /** A status callback: becomes one call event for call-service. */
    @ActivateRequestContext
    public CarrierAnswer status(TwilioWebhook webhook) {
        PhoneNumber number = verifiedNumber(webhook);
        boolean inbound = "inbound".equals(webhook.param("Direction"));
        String callSid = webhook.param("CallSid");
        String callStatus = webhook.param("CallStatus");
        if (callSid == null || callStatus == null) {
            return reported(calls.dropped(number, "a status callback needs CallSid and CallStatus"));
        }
        Long sequence = number(webhook.param("SequenceNumber"));
        CarrierEvent event = new CarrierEvent(
                "twilio:" + callSid + ":status:" + (sequence != null ? sequence : callStatus),
                webhook.query("callId"), TWILIO, callSid, CarrierEvent.STATUS, callStatus,
                webhook.param("AnsweredBy"), sequence, number(webhook.param("CallDuration")),
                integer(webhook.param("SipResponseCode")), timestamp(webhook.param("Timestamp")),
                inbound ? "inbound" : "outbound");
        return reported(calls.report(number, event));
    }

    /**
     * The asynchronous answering-machine result. Twilio sends no numbers with it, so the URL we gave names the
     * phone number ({@code ?phoneNumberId=...&callId=...}); the signature covers that URL.
     */
    @ActivateRequestContext
    public CarrierAnswer machineDetection(TwilioWebhook webhook) {
        PhoneNumber number = verifiedNumber(webhook);
        String callSid = webhook.param("CallSid");
        String answeredBy = webhook.param("AnsweredBy");
        if (callSid == null || answeredBy == null) {
            return reported(calls.dropped(number, "an answering-machine result needs CallSid and AnsweredBy"));
        }
        CarrierEvent event = new CarrierEvent("twilio:" + callSid + ":amd", webhook.query("callId"), TWILIO, callSid,
                CarrierEvent.ANSWERED_BY, null, answeredBy, null, null, null, null, "outbound");
        return reported(calls.report(number, event));
    }

    /** The number whose token verified a webhook: {@link #verify} passes no other webhook without one. */
    private static PhoneNumber verifiedNumber(TwilioWebhook webhook) {
        return webhook.number().orElseThrow(() -> new IllegalStateException(
                "twilio " + webhook.route() + " passed verification without a number"));
    }

    /**
     * Checks a request to {@code route}, reading its number once and opening that number's auth token once: refused
     * when too large (413), unsigned, for a number not imported here, or signed otherwise than with the number's
     * token (403); otherwise passed on with what was checked. An inbound call to an unknown number is not refused
     * here: it gets a polite spoken refusal. The route verifier calls this and hands the webhook to the handler, so a
     * handler is never reached unverified, and the entry points that take a raw request call it too.
     */
    public WebhookCheck<TwilioWebhook> verify(String route, String rawQuery, byte[] body, String signature) {
        if (body.length > maxBody) {
            LOG.warnf("twilio %s: body of %d bytes refused (at most %d)", route, body.length, maxBody);
            return new WebhookCheck.Refused<>(
                    CarrierAnswer.error(413, "request body is too large (at most " + maxBody + " bytes)"));
        }
        if (signature == null || signature.isBlank()) {
            LOG.warnf("twilio %s: no X-Twilio-Signature; refused", route);
            return new WebhookCheck.Refused<>(forbidden());
        }
        String url = addresses.of(route, rawQuery);
        Map<String, List<String>> params = parameters(url, body);
        Optional<PhoneNumber> number = numberFor(route, url, params);
        TwilioWebhook webhook = new TwilioWebhook(route, url, params, number);
        if (number.isEmpty()) {
            if (route.equals(WebhookAddresses.TWILIO_INBOUND)) {
                return new WebhookCheck.Passed<>(webhook);
            }
            LOG.infof("twilio %s for a number not imported here; refused", route);
            return new WebhookCheck.Refused<>(forbidden());
        }
        return verified(number.get(), url, params, body, signature, route)
                ? new WebhookCheck.Passed<>(webhook)
                : new WebhookCheck.Refused<>(forbidden());
    }

    /**
     * The number a request is about: the called number of an inbound call, ours on a status callback (the called
     * one inbound, the caller on calls we placed), the one named in the URL of an answering-machine result (Twilio
     * sends no numbers with it; the URL we gave names it, and the signature covers the URL).
     */
    private Optional<PhoneNumber> numberFor(String route, String url, Map<String, List<String>> params) {
        String account = FormBody.first(params, "AccountSid");
        if (account == null) {
            return Optional.empty();
        }
        boolean inbound = route.equals(WebhookAddresses.TWILIO_INBOUND)
                || "inbound".equals(FormBody.first(params, "Direction"));
        Optional<PhoneNumber> imported;
        if (route.equals(WebhookAddresses.TWILIO_AMD)) {
            imported = Ids.parse(TwilioSignature.queryValue(url, "phoneNumberId"))
                    .flatMap(id -> numbers.findForWebhook(TWILIO, account, id));
        } else {
            String ours = FormBody.first(params, inbound ? "To" : "From");
            imported = ours == null ? Optional.empty() : numbers.findForWebhook(TWILIO, account, ours);
        }
        if (imported.isPresent() || inbound) {
            return imported;
        }
        // A call dialled from an inline number: the callId of the URL we gave names it (the signature covers it).
        String callId = TwilioSignature.queryValue(url, "callId");
        // A callId no dial was ever given (a control character, say) names no inline dial; not worth a query.
        return callId == null || !WebhookContents.isReadable(callId)
                ? Optional.empty()
                : inlineDials.findForWebhook(TWILIO, account, callId);
    }

    /**
     * The request's parameters: the form body's, or, when the URL carries {@code bodySHA256} (Twilio's JSON
     * bodies), the JSON object's top-level fields as text (an unreadable body gives none, so nothing resolves).
     */
    private Map<String, List<String>> parameters(String url, byte[] body) {
        if (TwilioSignature.queryValue(url, TwilioSignature.BODY_HASH) == null) {
            return FormBody.parse(body);
        }
        Map<String, List<String>> params = new LinkedHashMap<>();
        try {
            JsonNode parsed = json.readTree(body);
            if (parsed != null && parsed.isObject()) {
                parsed.properties().forEach(field -> {
                    if (field.getValue().isValueNode() && !field.getValue().isNull()) {
                        params.put(field.getKey(), List.of(field.getValue().asText()));
                    }
                });
            }
        } catch (IOException e) {
            LOG.info("twilio JSON webhook body is not JSON; nothing in it is read");
        }
        return params;
    }

    private boolean verified(PhoneNumber number, String url, Map<String, List<String>> params, byte[] body,
            String signature, String route) {
        String token = secrets.open(number, Secrets.AUTH_TOKEN, number.twilioAuthToken);
        boolean valid = TwilioSignature.queryValue(url, TwilioSignature.BODY_HASH) != null
                ? TwilioSignature.isValidWithBody(token, url, body, signature)
                : TwilioSignature.isValid(token, url, params, signature);
        if (valid) {
            return true;
        }
        LOG.warnf("twilio %s: X-Twilio-Signature does not match for phone number %s (org %s); refused", route,
                number.id, number.orgId);
        return false;
    }

    /** Recorded or dropped for good: acknowledged (Twilio stops retrying); anything else is to be retried. */
    private static CarrierAnswer reported(int status) {
        return status / 100 == 2 ? twiml(TwiML.empty()) : CarrierAnswer.error(status, "try again later");
    }

    static CarrierAnswer forbidden() {
        return CarrierAnswer.error(403, "the request signature is missing or does not match");
    }

    private static CarrierAnswer twiml(String document) {
        return new CarrierAnswer(200, TwiML.CONTENT_TYPE, document);
    }

    private static Long number(String value) {
        try {
            return value == null ? null : Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Integer integer(String value) {
        Long parsed = number(value);
        return parsed == null || parsed > Integer.MAX_VALUE || parsed < Integer.MIN_VALUE ? null : parsed.intValue();
    }

    /** Twilio's RFC 2822 {@code Timestamp} as ISO 8601; null when absent or unreadable. */
    static String timestamp(String value) {
        if (value == null) {
            return null;
        }
        try {
            return ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toString();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
