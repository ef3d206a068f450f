package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.voiceplane.kit.testing.TestClients;

/** The peers as WireMock plays them; every test stubs ids of its own. */
final class Stubs {

    private Stubs() {
    }

    static String assistant(WireMockServer wireMock, String orgId, String body) {
        String id = TestClients.newId();
        assistant(wireMock, orgId, id, body);
        return id;
    }

    static void assistant(WireMockServer wireMock, String orgId, String id, String body) {
        wireMock.stubFor(get(urlEqualTo("/internal/assistant/" + id)).withHeader("X-Voice-Org-Id", equalTo(orgId))
                .willReturn(okJson(body.replaceFirst("\\{", "{\"id\":\"" + id + "\",\"orgId\":\"" + orgId
                        + "\",\"createdAt\":\"2024-06-01T00:00:00.000Z\",\"updatedAt\":\"2024-06-01T00:00:00.000Z\","))));
    }

    static void unknownAssistant(WireMockServer wireMock, String id) {
        wireMock.stubFor(get(urlEqualTo("/internal/assistant/" + id)).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"message\":\"Assistant not found\",\"error\":\"Not Found\",\"statusCode\":404}")));
    }

    static void brokenAssistant(WireMockServer wireMock, String id) {
        wireMock.stubFor(get(urlEqualTo("/internal/assistant/" + id))
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    }

    static void squad(WireMockServer wireMock, String orgId, String id, String body) {
        wireMock.stubFor(get(urlEqualTo("/internal/squad/" + id)).withHeader("X-Voice-Org-Id", equalTo(orgId))
                .willReturn(okJson(body)));
    }

    /** A twilio number of the organisation; returns its id. */
    static String phoneNumber(WireMockServer wireMock, String orgId, String assistantId, String serverUrl) {
        String id = TestClients.newId();
        wireMock.stubFor(get(urlEqualTo("/internal/phone-number/" + id)).withHeader("X-Voice-Org-Id", equalTo(orgId))
                .willReturn(okJson(numberJson(id, orgId, assistantId, serverUrl))));
        return id;
    }

    static String numberJson(String id, String orgId, String assistantId, String serverUrl) {
        return "{\"id\":\"" + id + "\",\"orgId\":\"" + orgId + "\",\"provider\":\"twilio\",\"carrier\":\"twilio\","
                + "\"number\":\"+14155550100\",\"name\":\"front desk\""
                + (assistantId == null ? "" : ",\"assistantId\":\"" + assistantId + "\"")
                + (serverUrl == null ? "" : ",\"serverUrl\":\"" + serverUrl + "\",\"serverUrlSecret\":\"number-secret\"")
                + ",\"twilioAccountSid\":\"AC123\"}";
    }

    /** Dialling from the number places a carrier call {@code carrierCallId}. */
    static void dial(WireMockServer wireMock, String phoneNumberId, String carrierCallId) {
        wireMock.stubFor(post(urlEqualTo("/internal/phone-number/" + phoneNumberId + "/dial"))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"callId\":\"x\",\"phoneCallProvider\":\"twilio\",\"phoneCallProviderId\":\""
                                + carrierCallId + "\",\"phoneCallProviderDetails\":{\"to\":\"+14155550123\","
                                + "\"from\":\"+14155550100\",\"statusCallbackEvent\":\"initiated\"}}")));
        wireMock.stubFor(post(urlEqualTo("/internal/phone-number/" + phoneNumberId + "/hangup"))
                .willReturn(okJson("{\"ended\":true}")));
    }

    static void dialRefused(WireMockServer wireMock, String phoneNumberId) {
        wireMock.stubFor(post(urlEqualTo("/internal/phone-number/" + phoneNumberId + "/dial"))
                .willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":\"carrier refused: 21211\",\"error\":\"Bad Request\",\"statusCode\":400}")));
    }

    /** The organisation's openai credential and its key. */
    static void openAiKey(WireMockServer wireMock, String orgId, String apiKey) {
        String id = TestClients.newId();
        wireMock.stubFor(get(urlPathEqualTo("/internal/credential")).withHeader("X-Voice-Org-Id", equalTo(orgId))
                .withQueryParam("provider", equalTo("openai"))
                .willReturn(okJson("[{\"id\":\"" + id + "\",\"orgId\":\"" + orgId + "\",\"provider\":\"openai\"}]")));
        wireMock.stubFor(get(urlEqualTo("/internal/credential/" + id + "/secret"))
                .withHeader("X-Voice-Org-Id", equalTo(orgId))
                .willReturn(okJson("{\"id\":\"" + id + "\",\"provider\":\"openai\",\"apiKey\":\"" + apiKey + "\"}")));
    }

    /** The chat API answers {@code content} to a request with this key whose system prompt contains {@code marker}. */
    static void chat(WireMockServer wireMock, String apiKey, String marker, String content) {
        wireMock.stubFor(post(urlEqualTo("/chat/completions")).withHeader("Authorization", equalTo("Bearer " + apiKey))
                .withRequestBody(matchingJsonPath("$.messages[0].content", com.github.tomakehurst.wiremock.client.WireMock.containing(marker)))
                .willReturn(okJson("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                        + "\"message\":{\"role\":\"assistant\",\"content\":" + quoted(content) + "},\"finish_reason\":\"stop\"}],"
                        + "\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":10,\"total_tokens\":110}}")));
    }

    static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
