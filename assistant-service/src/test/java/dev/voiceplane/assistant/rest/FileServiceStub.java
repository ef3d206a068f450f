package dev.voiceplane.assistant.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import dev.voiceplane.assistant.client.FileCatalogue;
import dev.voiceplane.kit.testing.TestKeys;
import io.smallrye.faulttolerance.api.CircuitBreakerMaintenance;
import java.util.List;
import java.util.stream.Collectors;

/**
 * file-service as WireMock plays it: {@code POST /internal/file/lookup}. Stubs match on the ids a test made up
 * for itself, so no test sees another's stubs.
 */
final class FileServiceStub {

    static final String LOOKUP = "/internal/file/lookup";

    private FileServiceStub() {
    }

    /** The lookup of exactly {@code asked} for {@code orgId}, with the internal token. */
    static MappingBuilder lookupOf(String orgId, List<String> asked) {
        return post(urlEqualTo(LOOKUP))
                .withHeader("Authorization", equalTo(TestKeys.bearer(TestKeys.INTERNAL_TOKEN)))
                .withHeader("X-Voice-Org-Id", equalTo(orgId))
                .withHeader("Content-Type", equalTo("application/json"))
                .withRequestBody(equalToJson(json("ids", asked), true, false));
    }

    /** file-service knows {@code found} among {@code asked}. */
    static void answer(WireMockServer fileService, String orgId, List<String> asked, List<String> found) {
        fileService.stubFor(lookupOf(orgId, asked).willReturn(okJson(json("found", found))));
    }

    static void answer(WireMockServer fileService, String orgId, List<String> asked, ResponseDefinitionBuilder response) {
        fileService.stubFor(lookupOf(orgId, asked).willReturn(response));
    }

    /** How many lookups asked about this id. */
    static int lookupsAsking(WireMockServer fileService, String id) {
        return fileService.findAll(postRequestedFor(urlEqualTo(LOOKUP))
                .withRequestBody(matchingJsonPath("$.ids[?(@ == '" + id + "')]"))).size();
    }

    /** Closes the circuit breaker, so that a test is not refused because of another test's failures. */
    static void closeCircuit(CircuitBreakerMaintenance breakers) {
        breakers.reset(FileCatalogue.CIRCUIT);
    }

    static String json(String field, List<String> ids) {
        return "{\"" + field + "\":[" + ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",")) + "]}";
    }
}
