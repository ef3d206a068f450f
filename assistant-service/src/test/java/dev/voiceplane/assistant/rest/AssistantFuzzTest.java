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
        String assistant = maximal.toString();
        String small = "{\"name\":\"Ada\",\"firstMessage\":\"Hello\",\"metadata\":{\"n\":1e1000,\"list\":[1,\"a\",null]}}";
        String squad = SquadResourceTest.fullSquad(createAssistant(orgA(), "{\"name\":\"Billing\"}"));
        String inlineSquad = "{\"members\":[{\"assistant\":" + small
                + ",\"assistantOverrides\":{\"variableValues\":{\"v\":0.5e-1000}}}]}";

        FuzzSuite.of("assistant-service")
                .endpoint(Endpoint.post("/assistant", assistant, small))
                .endpoint(Endpoint.list("/assistant"))
                .endpoint(Endpoint.get("/assistant/{id}"))
                .endpoint(Endpoint.patch("/assistant/{id}", "{\"name\":\"renamed\"}", assistant, "{\"model\":null}"))
                .endpoint(Endpoint.delete("/assistant/{id}"))
                .endpoint(Endpoint.post("/squad", squad, inlineSquad))
                .endpoint(Endpoint.list("/squad"))
                .endpoint(Endpoint.get("/squad/{id}"))
                .endpoint(Endpoint.patch("/squad/{id}", "{}", inlineSquad, squad))
                .endpoint(Endpoint.delete("/squad/{id}"))
                // Internal routes are not public: an API key must be refused there, in the error shape.
                .endpoint(Endpoint.get("/internal/assistant/{id}"))
                .endpoint(Endpoint.post("/internal/assistant/lookup", "{\"ids\":[\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\"]}"))
                .endpoint(Endpoint.get("/internal/squad/{id}"))
                .stored("/assistant", assistant)
                .stored("/assistant", small)
                .stored("/squad", inlineSquad)
                .cases(2500)
                .run();
    }
}
