package dev.voiceplane.telephony.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.TestKeys;
import io.smallrye.faulttolerance.api.CircuitBreakerMaintenance;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The other services and the carriers as WireMock plays them. Every stub matches on values a test made up for
 * itself (account SIDs, numbers, ids), so no test sees another's stubs.
 */
public final class Stubs {

    public static final String PUBLIC = "https://voice.example.com";

    private Stubs() {
    }

    /** A fictional E.164 number no other test uses. */
    public static String newNumber() {
        return "+1555" + ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_999_999_999L);
    }

    public static String newAccountSid() {
        return "AC" + java.util.UUID.randomUUID().toString().replace("-", "");
    }

    public static String accountPath(String accountSid) {
        return "/2010-04-01/Accounts/" + accountSid;
    }

    /**
     * Twilio account {@code accountSid} (auth token {@code token}) owns {@code number} as {@code PN...}, whose
     * voice URL is {@code previousVoiceUrl}; any request with other credentials is answered 401 as Twilio does.
     */
    public static String twilioOwns(WireMockServer wm, String accountSid, String token, String number,
            String previousVoiceUrl) {
        String sid = "PN" + java.util.UUID.randomUUID().toString().replace("-", "");
        twilioRefusesOtherCredentials(wm, accountSid);
        wm.stubFor(get(urlPathEqualTo(accountPath(accountSid) + "/IncomingPhoneNumbers.json"))
                .withQueryParam("PhoneNumber", equalTo(number))
                .withBasicAuth(accountSid, token)
                .atPriority(1)
                .willReturn(okJson("{\"incoming_phone_numbers\":[{\"sid\":\"" + sid + "\",\"phone_number\":\""
                        + number + "\",\"voice_url\":" + (previousVoiceUrl == null ? "null" : "\"" + previousVoiceUrl + "\"")
                        + ",\"status_callback\":\"\"}],\"page\":0}")));
        wm.stubFor(post(urlEqualTo(accountPath(accountSid) + "/IncomingPhoneNumbers/" + sid + ".json"))
                .withBasicAuth(accountSid, token)
                .atPriority(1)
                .willReturn(okJson("{\"sid\":\"" + sid + "\"}")));
        return sid;
    }

    /** The account exists but holds no such number: Twilio answers an empty page. */
    public static void twilioOwnsNothing(WireMockServer wm, String accountSid, String token) {
        twilioRefusesOtherCredentials(wm, accountSid);
        wm.stubFor(get(urlPathEqualTo(accountPath(accountSid) + "/IncomingPhoneNumbers.json"))
                .withBasicAuth(accountSid, token)
                .atPriority(1)
                .willReturn(okJson("{\"incoming_phone_numbers\":[],\"page\":0}")));
    }

    public static void twilioRefusesOtherCredentials(WireMockServer wm, String accountSid) {
        wm.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(urlPathMatching(accountPath(accountSid) + "/.*"))
                .atPriority(5)
                .willReturn(aResponse().withStatus(401).withHeader("Content-Type", "application/json")
                        .withBody("{\"code\":20003,\"message\":\"Authenticate\",\"more_info\":\"https://www.twilio.com/docs/errors/20003\",\"status\":401}")));
    }

    /** assistant-service knows {@code assistantId} in {@code orgId} (or not). */
    public static void assistantLookup(WireMockServer wm, String orgId, String assistantId, boolean exists) {
        wm.stubFor(post(urlEqualTo("/internal/assistant/lookup"))
                .withHeader("Authorization", equalTo(TestKeys.bearer(TestKeys.INTERNAL_TOKEN)))
                .withHeader("X-Voice-Org-Id", equalTo(orgId))
                .withRequestBody(equalToJson("{\"ids\":[\"" + assistantId + "\"]}"))
                .willReturn(okJson("{\"found\":[" + (exists ? "\"" + assistantId + "\"" : "") + "]}")));
    }

    /** credential-service holds credential {@code id} of {@code provider} in {@code orgId}. */
    public static void credential(WireMockServer wm, String orgId, String id, String provider, String apiKey,
            String apiSecret) {
        wm.stubFor(get(urlEqualTo("/internal/credential/" + id + "/secret"))
                .withHeader("Authorization", equalTo(TestKeys.bearer(TestKeys.INTERNAL_TOKEN)))
                .withHeader("X-Voice-Org-Id", equalTo(orgId))
                .willReturn(okJson("{\"id\":\"" + id + "\",\"provider\":\"" + provider + "\",\"apiKey\":\"" + apiKey
                        + "\",\"apiSecret\":\"" + apiSecret + "\"}")));
    }

    public static void resetCircuits(CircuitBreakerMaintenance breakers) {
        breakers.resetAll();
    }
}
