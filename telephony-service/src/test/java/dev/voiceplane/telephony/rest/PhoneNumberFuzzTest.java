package dev.voiceplane.telephony.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.fuzz.Endpoint;
import dev.voiceplane.kit.testing.fuzz.FuzzSuite;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * Every public endpoint of telephony-service under the kit's fuzz suite (service-kit/README.md). No {@code stored}
 * records: a number is live in one organisation only, so the suite's "the same body as org A and org B" cannot hold.
 */
@QuarkusTest
class PhoneNumberFuzzTest {

    @InjectWireMock
    WireMockServer wm;

    @Test
    void noInputAnswers5xxOrLeavesTheErrorShape() {
        // Fuzzed references and credentials get answers, not outages: no assistant, no credential, Twilio says 401.
        wm.stubFor(post(urlEqualTo("/internal/assistant/lookup")).atPriority(10).willReturn(okJson("{\"found\":[]}")));
        wm.stubFor(any(urlPathMatching("/internal/credential/.*")).atPriority(10).willReturn(aResponse().withStatus(404)));
        wm.stubFor(any(urlPathMatching("/2010-04-01/.*")).atPriority(10).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json").withBody("{\"code\":20003,\"message\":\"Authenticate\"}")));
        String twilio = "{\"twilioPhoneNumber\":\"+15550001111\",\"twilioAccountSid\":\"AC1\",\"twilioAuthToken\":\"t\","
                + "\"name\":\"n\",\"assistantId\":\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\",\"serverUrl\":\"https://h.example.com\","
                + "\"serverUrlSecret\":\"srv-fuzz-secret-07\"}";
        String vonage = "{\"vonagePhoneNumber\":\"+445550001111\",\"credentialId\":\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\"}";
        FuzzSuite.of("telephony-service")
                .endpoint(Endpoint.post("/phone-number/import/twilio", twilio))
                .endpoint(Endpoint.post("/phone-number/import/vonage", vonage))
                .endpoint(Endpoint.post("/phone-number", "{\"provider\":\"twilio\",\"number\":\"+15550001112\","
                        + "\"twilioAccountSid\":\"AC1\",\"twilioAuthToken\":\"t\"}"))
                .endpoint(Endpoint.list("/phone-number"))
                .endpoint(Endpoint.get("/phone-number/{id}"))
                .endpoint(Endpoint.patch("/phone-number/{id}", "{\"name\":\"x\",\"serverUrl\":null}",
                        "{\"provider\":\"twilio\",\"server\":{\"url\":\"https://h.example.com\",\"secret\":"
                                + "\"srv-fuzz-secret-08\",\"headers\":{\"X-K\":\"v\"},\"timeoutSeconds\":9}}"))
                .endpoint(Endpoint.delete("/phone-number/{id}"))
                .endpoint(Endpoint.get("/internal/phone-number/{id}"))
                .endpoint(Endpoint.post("/internal/phone-number/{id}/dial",
                        "{\"callId\":\"c\",\"customer\":{\"number\":\"+14155550100\"}}"))
                .endpoint(Endpoint.post("/internal/phone-number/{id}/hangup", "{\"phoneCallProviderId\":\"CA1\"}"))
                .endpoint(Endpoint.post("/internal/phone-number/dial-inline",
                        "{\"callId\":\"c\",\"customer\":{\"number\":\"+14155550100\"},\"phoneNumber\":{\"provider\":\"twilio\","
                                + "\"number\":\"+15550001113\",\"twilioAccountSid\":\"AC1\",\"twilioAuthToken\":\"t\"}}",
                        "{\"callId\":\"c2\",\"customer\":{\"number\":\"+14155550100\"},\"phoneNumber\":{\"provider\":\"vonage\","
                                + "\"number\":\"+445550001113\",\"credentialId\":\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\"}}"))
                .endpoint(Endpoint.post("/internal/phone-number/hangup-inline", "{\"phoneCallProviderId\":\"CA1\"}"))
                .endpoint(Endpoint.post("/internal/phone-number/{id}/transfer",
                        "{\"phoneCallProviderId\":\"CA1\",\"number\":\"+14155550177\"}"))
                .endpoint(Endpoint.post("/internal/phone-number/transfer-inline",
                        "{\"phoneCallProviderId\":\"CA1\",\"number\":\"+14155550177\"}"))
                .readsBack("/phone-number/import/twilio", "/phone-number")
                .readsBack("/phone-number/import/vonage", "/phone-number")
                .cases(1500)
                .run();
    }
}
