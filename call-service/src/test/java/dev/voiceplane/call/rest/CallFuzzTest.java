package dev.voiceplane.call.rest;

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
 * Every public endpoint of call-service under the kit's fuzz suite (service-kit/README.md). No {@code stored}
 * records: a stored call moves on by itself (the sweeper ends calls that are never answered), so "reads back
 * identical" is not a property of calls.
 */
@QuarkusTest
class CallFuzzTest {

    @InjectWireMock
    WireMockServer peers;

    @Test
    void noInputAnswers5xxOrLeavesTheErrorShape() {
        // Fuzzed references get answers, not outages: no such assistant, squad or phone number; dialling is refused.
        peers.stubFor(post(urlEqualTo("/internal/assistant/lookup")).atPriority(10).willReturn(okJson("{\"found\":[]}")));
        peers.stubFor(any(urlPathMatching("/internal/(assistant|squad|phone-number)/.*")).atPriority(20)
                .willReturn(aResponse().withStatus(404)));
        // One tool is known, whatever is asked: a call naming another in model.toolIds is a 400.
        peers.stubFor(post(urlEqualTo("/internal/tool/resolve")).atPriority(10).willReturn(okJson(
                "[{\"id\":\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\",\"type\":\"endCall\"}]")));
        String web = "{\"assistant\":{\"name\":\"fuzz\",\"firstMessage\":\"hi\"},\"name\":\"n\",\"metadata\":{\"k\":1}}";
        String phone = "{\"assistant\":{\"name\":\"fuzz\"},\"phoneNumberId\":\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\","
                + "\"customer\":{\"number\":\"+14155550100\",\"name\":\"c\"}}";
        String inline = "{\"assistant\":{\"name\":\"fuzz\"},\"phoneNumber\":{\"twilioPhoneNumber\":\"+14155550101\","
                + "\"twilioAccountSid\":\"AC1\",\"twilioAuthToken\":\"t\",\"name\":\"pop-up\"},"
                + "\"customer\":{\"number\":\"+14155550100\"}}";
        FuzzSuite.of("call-service")
                .endpoint(Endpoint.post("/call", web, phone, inline))
                .endpoint(Endpoint.post("/call/web", web, "{\"assistant\":{\"name\":\"fuzz\",\"server\":{\"url\":"
                        + "\"https://h.example.com/s\",\"secret\":\"call-fuzz-secret-33\",\"headers\":{\"X-K\":\"v\"},"
                        + "\"timeoutSeconds\":5},\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\","
                        + "\"toolIds\":[\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\"]}}}"))
                .endpoint(Endpoint.post("/call/phone", phone, inline))
                .endpoint(Endpoint.list("/call"))
                .endpoint(Endpoint.get("/call/{id}"))
                .endpoint(Endpoint.patch("/call/{id}", "{\"name\":\"x\",\"metadata\":{\"a\":[1,2]}}"))
                .endpoint(Endpoint.post("/call/{id}/end", "{}"))
                .endpoint(Endpoint.delete("/call/{id}"))
                .endpoint(Endpoint.get("/call/{id}/deliveries"))
                .endpoint(Endpoint.post("/call/deliveries/{id}/redeliver", "{}"))
                .endpoint(Endpoint.get("/call/webhook-secret"))
                .endpoint(Endpoint.post("/call/webhook-secret/rotate", "{\"overlapSeconds\":60}", "{}"))
                .endpoint(Endpoint.post("/internal/call/inbound", "{}"))
                .endpoint(Endpoint.get("/internal/call/{id}/runtime"))
                .endpoint(Endpoint.post("/internal/call/{id}/runtime/address", "{\"url\":\"http://10.0.3.7:8080\"}"))
                .endpoint(Endpoint.post("/internal/call/{id}/runtime/events", "{\"sequence\":0,\"type\":"
                        + "\"server-message\",\"serverMessage\":{\"type\":\"transcript\",\"role\":\"user\","
                        + "\"transcriptType\":\"final\",\"transcript\":\"hi\"}}"))
                .endpoint(Endpoint.post("/internal/call/{id}/runtime/tool-calls", "{\"toolCallList\":[{\"id\":\"c1\","
                        + "\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":{\"n\":1}}}]}"))
                .endpoint(Endpoint.post("/internal/call/{id}/runtime/transfer", "{\"number\":\"+14155550177\"}"))
                .readsBack("/call/web", "/call")
                .readsBack("/call/phone", "/call")
                .cases(1500)
                .run();
    }
}
