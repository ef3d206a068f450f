package dev.voiceplane.call;

import dev.voiceplane.kit.testing.TestEnvironment;
import dev.voiceplane.kit.testing.WireMockService;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/**
 * Every test of this service runs against the shared test environment (real PostgreSQL, test keys) and one
 * WireMock server standing in for assistant-, telephony- and credential-service and the OpenAI-compatible chat
 * API (their paths do not overlap).
 */
@QuarkusTestResource(value = TestEnvironment.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = WireMockService.class, restrictToAnnotatedClass = false, initArgs = @ResourceArg(
        name = WireMockService.URL_PROPERTIES, value = "quarkus.rest-client.assistant-service.url,"
                + "quarkus.rest-client.telephony-service.url,quarkus.rest-client.credential-service.url,"
                + "quarkus.rest-client.openai.url"))
public class TestSetup {
}
