package dev.voiceplane.assistant.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.orgA;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.fuzz.Endpoint;
import dev.voiceplane.kit.testing.fuzz.FuzzSuite;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Every public endpoint of assistant-service under the kit's fuzz suite (service-kit/README.md). */
@QuarkusTest
class AssistantFuzzTest {

    @InjectWireMock
    WireMockServer fileService;

    @Test
    void noInputAnswers5xxOrLeavesTheErrorShapeOrChangesWhatIsStored() {
        // Mutated bodies may name knowledge-base files: file-service knows none of them (a 400, not a 503).
        fileService.stubFor(post(urlEqualTo(FileServiceStub.LOOKUP)).atPriority(10).willReturn(okJson("{\"found\":[]}")));
        ObjectNode maximal = Clients.object(Bodies.maximalAssistant("f", "f"));
        ((ObjectNode) maximal.get("model")).remove("knowledgeBase");
        // Stored for two organisations alike: a tool id names one organisation's tool (ToolResourceTest covers toolIds).
        ((ObjectNode) maximal.get("model")).remove("toolIds");
        String assistant = maximal.toString();
        String small = "{\"name\":\"Ada\",\"firstMessage\":\"Hello\",\"metadata\":{\"n\":1e1000,\"list\":[1,\"a\",null]}}";
        String squad = SquadResourceTest.fullSquad(createAssistant(orgA(), "{\"name\":\"Billing\"}"));
        String inlineSquad = "{\"members\":[{\"assistant\":" + small
                + ",\"assistantOverrides\":{\"variableValues\":{\"v\":0.5e-1000}}}]}";

        String tool = ToolResourceTest.FUNCTION.replace("\"server\":{", "\"server\":{\"secret\":\"tool-fuzz-secret-31\",");
        String serverObject = "{\"name\":\"S\",\"serverUrl\":\"https://h.example.com/a\",\"server\":{\"url\":"
                + "\"https://h.example.com/a\",\"secret\":\"srv-fuzz-secret-32\",\"headers\":{\"X-K\":\"v\"},"
                + "\"timeoutSeconds\":20}}";
        String namedSquad = "{\"name\":\"Desk\",\"members\":[{\"assistant\":" + small + "}]}";

        FuzzSuite.of("assistant-service")
                .endpoint(Endpoint.post("/assistant", assistant, small, serverObject))
                .endpoint(Endpoint.list("/assistant"))
                .endpoint(Endpoint.get("/assistant/{id}"))
                .endpoint(Endpoint.patch("/assistant/{id}", "{\"name\":\"renamed\"}", assistant, "{\"model\":null}",
                        "{\"serverUrl\":\"https://h.example.com/b\"}", serverObject))
                .endpoint(Endpoint.delete("/assistant/{id}"))
                .endpoint(Endpoint.post("/squad", squad, inlineSquad, namedSquad))
                .endpoint(Endpoint.list("/squad"))
                .endpoint(Endpoint.get("/squad/{id}"))
                .endpoint(Endpoint.patch("/squad/{id}", "{}", inlineSquad, squad))
                .endpoint(Endpoint.delete("/squad/{id}"))
                .endpoint(Endpoint.post("/tool", tool, "{\"type\":\"endCall\"}"))
                .endpoint(Endpoint.list("/tool"))
                .endpoint(Endpoint.get("/tool/{id}"))
                .endpoint(Endpoint.patch("/tool/{id}", "{\"async\":true}", "{\"server\":null}"))
                .endpoint(Endpoint.delete("/tool/{id}"))
                // Internal routes are not public: an API key must be refused there, in the error shape.
                .endpoint(Endpoint.get("/internal/assistant/{id}"))
                .endpoint(Endpoint.post("/internal/assistant/lookup", "{\"ids\":[\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\"]}"))
                .endpoint(Endpoint.get("/internal/squad/{id}"))
                .endpoint(Endpoint.post("/internal/tool/resolve", "{\"ids\":[\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\"]}"))
                .stored("/assistant", assistant)
                .stored("/assistant", small)
                .stored("/squad", inlineSquad)
                .stored("/squad", namedSquad)
                .stored("/assistant", serverObject)
                .stored("/tool", tool)
                .cases(2500)
                .run();
    }
}
