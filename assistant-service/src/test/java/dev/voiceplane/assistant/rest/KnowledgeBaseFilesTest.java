package dev.voiceplane.assistant.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static dev.voiceplane.assistant.rest.Clients.tree;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.voiceplane.kit.testing.TestDatabase;
import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.faulttolerance.api.CircuitBreakerMaintenance;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * model.knowledgeBase.fileIds are checked with file-service (played by WireMock): unknown ids are a 400 naming
 * them; a file-service that fails or does not answer is a 503, and nothing is written.
 */
@QuarkusTest
class KnowledgeBaseFilesTest {

    @InjectWireMock
    WireMockServer fileService;

    @Inject
    CircuitBreakerMaintenance breakers;

    @Inject
    AgroalDataSource dataSource;

    @BeforeEach
    @AfterEach
    void closeCircuit() {
        FileServiceStub.closeCircuit(breakers);
    }

    @Test
    void knownFilesAreAcceptedAndTheLookupIsScopedToTheCaller() {
        String a = newId();
        String b = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(a, b), List.of(a, b));
        orgA().body(withFiles(a, b, a)).when().post("/assistant").then().statusCode(201)
                .body("model.knowledgeBase.fileIds", contains(a, b, a));
        // One lookup, with the internal token and the caller's organisation, each id asked once.
        fileService.verify(1, postRequestedFor(urlEqualTo(FileServiceStub.LOOKUP))
                .withHeader("Authorization", WireMock.equalTo(TestKeys.bearer(TestKeys.INTERNAL_TOKEN)))
                .withHeader("X-Voice-Org-Id", WireMock.equalTo(TestKeys.ORG_A))
                .withRequestBody(WireMock.equalToJson(
                        FileServiceStub.json("ids", List.of(a, b)), true, false)));
    }

    @Test
    void unknownFilesAreNamed() throws Exception {
        String known = newId();
        String missing1 = newId();
        String missing2 = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(known, missing1, missing2), List.of(known));
        String name = "unknown files " + newId();
        orgA().body(named(name, missing2, known, missing1)).when().post("/assistant")
                .then().statusCode(400)
                .body("error", equalTo("Bad Request"))
                .body("message", contains("model.knowledgeBase.fileIds contains unknown file ids: " + missing2 + ", " + missing1));
        assertEquals(0, stored(name));
    }

    @Test
    void idsThatAreNotUuidsAreUnknownWithoutAsking() {
        String known = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(known), List.of(known));
        orgA().body(withFiles(known, "report.pdf")).when().post("/assistant")
                .then().statusCode(400)
                .body("message", contains("model.knowledgeBase.fileIds contains unknown file ids: report.pdf"));
        orgA().body(withFiles("report.pdf")).when().post("/assistant").then().statusCode(400);
        assertEquals(1, FileServiceStub.lookupsAsking(fileService, known));
        assertEquals(0, FileServiceStub.lookupsAsking(fileService, "report.pdf"));
        assertEquals(0, emptyLookups(), "nothing worth asking");
    }

    @Test
    void anotherOrganisationsFilesAreUnknown() {
        String file = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(file), List.of(file));
        FileServiceStub.answer(fileService, TestKeys.ORG_B, List.of(file), List.of());
        orgB().body(withFiles(file)).when().post("/assistant").then().statusCode(400)
                .body("message", contains("model.knowledgeBase.fileIds contains unknown file ids: " + file));
        orgA().body(withFiles(file)).when().post("/assistant").then().statusCode(201);
    }

    @Test
    void noFilesNoLookup() {
        orgA().body("{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\","
                + "\"knowledgeBase\":{\"provider\":\"canonical\",\"topK\":3,\"fileIds\":[]}}}").when().post("/assistant")
                .then().statusCode(201);
        assertEquals(0, emptyLookups());
    }

    /** Lookups that asked about nothing: the client must not send them. */
    private int emptyLookups() {
        return fileService.findAll(postRequestedFor(urlEqualTo(FileServiceStub.LOOKUP))
                .withRequestBody(WireMock.equalToJson("{\"ids\":[]}"))).size();
    }

    @Test
    void aFailingFileServiceIsA503AfterTwoRetriesAndNothingIsWritten() throws Exception {
        String file = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(file), aResponse().withStatus(500));
        String name = "file-service 500 " + newId();
        unavailable(named(name, file));
        assertEquals(3, FileServiceStub.lookupsAsking(fileService, file), "one attempt and two retries");
        assertEquals(0, stored(name));
    }

    @Test
    void aTransientFailureIsRetried() {
        String file = newId();
        String scenario = "flaky " + file;
        fileService.stubFor(FileServiceStub.lookupOf(TestKeys.ORG_A, List.of(file)).inScenario(scenario)
                .whenScenarioStateIs(Scenario.STARTED).willReturn(aResponse().withStatus(503)).willSetStateTo("recovered"));
        fileService.stubFor(FileServiceStub.lookupOf(TestKeys.ORG_A, List.of(file)).inScenario(scenario)
                .whenScenarioStateIs("recovered").willReturn(okJson(FileServiceStub.json("found", List.of(file)))));
        orgA().body(withFiles(file)).when().post("/assistant").then().statusCode(201);
        assertEquals(2, FileServiceStub.lookupsAsking(fileService, file));
    }

    @Test
    void aRejectedLookupIsNotRetried() throws Exception {
        String file = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(file),
                aResponse().withStatus(401).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":\"Invalid internal service token.\",\"statusCode\":401}"));
        String name = "file-service 401 " + newId();
        unavailable(named(name, file));
        assertEquals(1, FileServiceStub.lookupsAsking(fileService, file), "a 4xx is not worth another attempt");
        assertEquals(0, stored(name));
    }

    @Test
    void aBrokenConnectionIsRetriedThenA503() throws Exception {
        String file = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(file),
                aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));
        String name = "file-service reset " + newId();
        unavailable(named(name, file));
        assertEquals(3, FileServiceStub.lookupsAsking(fileService, file));
        assertEquals(0, stored(name));
    }

    @Test
    void aSlowFileServiceTimesOutAsA503() throws Exception {
        String file = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(file),
                okJson(FileServiceStub.json("found", List.of(file))).withFixedDelay(4000));
        String name = "file-service slow " + newId();
        unavailable(named(name, file));
        assertEquals(0, stored(name));
    }

    @Test
    void aFileServiceThatKeepsFailingIsNotAskedUntilTheCircuitRecloses() {
        String failing = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(failing), aResponse().withStatus(502));
        for (int i = 0; i < 4; i++) {
            unavailable(withFiles(failing));
        }
        // The circuit is open: even a lookup file-service would answer is not sent.
        String healthy = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(healthy), List.of(healthy));
        unavailable(withFiles(healthy));
        assertEquals(0, FileServiceStub.lookupsAsking(fileService, healthy));
        FileServiceStub.closeCircuit(breakers);
        orgA().body(withFiles(healthy)).when().post("/assistant").then().statusCode(201);
    }

    @Test
    void aPatchChecksTheFilesOfTheModelItGivesAndChangesNothingWhenTheyAreUnknown() {
        String file = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(file), List.of(file));
        String id = createAssistant(orgA(), withFiles(file));
        JsonNode before = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));

        // A patch without a model does not ask again.
        int lookups = FileServiceStub.lookupsAsking(fileService, file);
        orgA().body("{\"name\":\"renamed\"}").when().patch("/assistant/" + id).then().statusCode(200);
        assertEquals(lookups, FileServiceStub.lookupsAsking(fileService, file));

        String missing = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(file, missing), List.of(file));
        JsonNode renamed = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        orgA().body("{\"name\":\"again\"," + withFiles(file, missing).substring(1)).when().patch("/assistant/" + id)
                .then().statusCode(400)
                .body("message", contains("model.knowledgeBase.fileIds contains unknown file ids: " + missing));
        String down = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(down), aResponse().withStatus(500));
        orgA().body("{\"name\":\"again\"," + withFiles(down).substring(1)).when().patch("/assistant/" + id)
                .then().statusCode(503);
        assertEquals(renamed, tree(orgA().when().get("/assistant/" + id).then().statusCode(200)));
        assertEquals(before.get("model"), renamed.get("model"));
    }

    @Test
    void squadMembersFilesAreCheckedInOneLookup() {
        String known = newId();
        String unknownInline = newId();
        String unknownOverride = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(known, unknownInline, unknownOverride), List.of(known));
        String body = "{\"members\":[{\"assistant\":" + withFiles(known, unknownInline) + "},"
                + "{\"assistant\":" + withFiles(known) + ",\"assistantOverrides\":" + withFiles(unknownOverride) + "}]}";
        orgA().body(body).when().post("/squad").then().statusCode(400)
                .body("message", containsInAnyOrder(
                        "members.0.assistant.model.knowledgeBase.fileIds contains unknown file ids: " + unknownInline,
                        "members.1.assistantOverrides.model.knowledgeBase.fileIds contains unknown file ids: " + unknownOverride));
        assertEquals(1, FileServiceStub.lookupsAsking(fileService, known));

        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(known), List.of(known));
        orgA().body("{\"members\":[{\"assistant\":" + withFiles(known) + ",\"assistantOverrides\":" + withFiles(known) + "}]}")
                .when().post("/squad").then().statusCode(201);
    }

    @Test
    void aSquadIsNotWrittenWhenFileServiceIsDown() throws Exception {
        String file = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(file), aResponse().withStatus(503));
        String assistantId = createAssistant(orgA());
        String before = squadsNaming(assistantId);
        orgA().body("{\"members\":[{\"assistantId\":\"" + assistantId + "\"},{\"assistant\":" + withFiles(file) + "}]}")
                .when().post("/squad").then().statusCode(503).body("statusCode", equalTo(503));
        assertEquals(before, squadsNaming(assistantId));
        assertEquals("0", before);
    }

    private static void unavailable(String body) {
        orgA().body(body).when().post("/assistant").then().statusCode(503)
                .body("statusCode", equalTo(503))
                .body("error", equalTo("Service Unavailable"))
                .body("message", startsWith("file-service is unavailable"));
    }

    /** An assistant whose knowledge base names these files. */
    static String withFiles(String... fileIds) {
        return "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"knowledgeBase\":{\"provider\":\"canonical\","
                + FileServiceStub.json("fileIds", List.of(fileIds)).substring(1) + "}}";
    }

    /** The same, with a name to find it by. */
    static String named(String name, String... fileIds) {
        return "{\"name\":\"" + name + "\"," + withFiles(fileIds).substring(1);
    }

    private long stored(String name) throws Exception {
        return TestDatabase.count(dataSource, "select count(*) from assistant.assistants where document->>'name' = ?", name);
    }

    private String squadsNaming(String assistantId) throws Exception {
        return Long.toString(TestDatabase.count(dataSource, "select count(*) from assistant.squad_member_assistants where assistant_id = ?::uuid",
                assistantId));
    }

}
