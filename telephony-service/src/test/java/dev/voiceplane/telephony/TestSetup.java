package dev.voiceplane.telephony;

import dev.voiceplane.kit.testing.TestEnvironment;
import dev.voiceplane.kit.testing.WireMockService;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/**
 * Every test of this service runs against the shared test environment (real PostgreSQL, test keys) and one
 * WireMock server that plays assistant-service, credential-service, call-service and both carriers (their paths
 * do not overlap).
 */
@QuarkusTestResource(value = TestEnvironment.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = WireMockService.class, restrictToAnnotatedClass = false, initArgs = @ResourceArg(
        name = WireMockService.URL_PROPERTIES, value = "quarkus.rest-client.assistant-service.url,"
                + "quarkus.rest-client.credential-service.url,quarkus.rest-client.call-service.url,"
                + "quarkus.rest-client.twilio.url,quarkus.rest-client.vonage-api.url,quarkus.rest-client.vonage-rest.url"))
public class TestSetup {
}
