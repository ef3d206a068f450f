package dev.voiceplane.runtime;

import dev.voiceplane.kit.testing.TestKeys;
import dev.voiceplane.kit.testing.WireMockService;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.ResourceArg;
import java.util.Map;

/**
 * Every test of the runtime runs with the test keys (service token, media token key) and one WireMock server
 * standing in for call-service, credential-service and file-service (their internal paths do not overlap). The runtime has no
 * database, so no PostgreSQL is started. The providers are local fakes ({@link FakeProviders}).
 */
@QuarkusTestResource(value = RuntimeTestSetup.Keys.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = FakeProviders.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = WireMockService.class, restrictToAnnotatedClass = false, initArgs = @ResourceArg(
        name = WireMockService.URL_PROPERTIES, value = "quarkus.rest-client.call-service.url,"
                + "quarkus.rest-client.credential-service.url,quarkus.rest-client.file-service.url"))
public class RuntimeTestSetup {

    /** The keys of the test environment, without its database. */
    public static class Keys implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            return Map.of(
                    "voice.api-keys", TestKeys.CONFIG,
                    "voice.internal-token", TestKeys.INTERNAL_TOKEN,
                    "voice.media-token-key", TestKeys.MEDIA_TOKEN_KEY,
                    "voice.runtime.start-timeout", "1s",
                    // Short deadlines keep the tests of hanging providers quick; long enough for a loaded machine.
                    "voice.runtime.deadline.transcriber", "3s",
                    "voice.runtime.deadline.llm-first-token", "3s",
                    "voice.runtime.deadline.tts-first-audio", "4s",
                    // The knowledge-base search (WireMock): generous, so a loaded machine does not drop passages.
                    "voice.runtime.deadline.knowledge", "3s",
                    // Past that deadline, so that a slow search is the deadline's to end, not the peer policy's.
                    "voice.peer.file-service-search.timeout", "10s");
        }

        @Override
        public void stop() {
        }
    }
}
