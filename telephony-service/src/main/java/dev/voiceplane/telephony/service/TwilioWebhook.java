package dev.voiceplane.telephony.service;

import dev.voiceplane.telephony.carrier.FormBody;
import dev.voiceplane.telephony.carrier.TwilioSignature;
import dev.voiceplane.telephony.domain.PhoneNumber;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Twilio webhook as {@link TwilioWebhooks#verify} checked it: the route, the public URL the signature covers (its
 * query names the call and, for answering-machine results, the number), the parameters that were signed, and the
 * number whose auth token verified them. The number is empty only for an inbound call to a number not imported here,
 * which is answered with a spoken refusal.
 */
public record TwilioWebhook(String route, String url, Map<String, List<String>> params, Optional<PhoneNumber> number) {

    /** A signed parameter, or null when absent. */
    public String param(String name) {
        return FormBody.first(params, name);
    }

    /** A parameter of the signed URL's query, or null when absent or not decodable. */
    public String query(String name) {
        return TwilioSignature.queryValue(url, name);
    }
}
