package dev.voiceplane.runtime.media;

import dev.voiceplane.kit.testing.fuzz.Endpoint;
import dev.voiceplane.kit.testing.fuzz.FuzzSuite;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * The runtime's one JSON route ({@code POST /internal/runtime/call/{id}/voicemail}, docs/voice-runtime.md
 * "Voicemail") under the kit's fuzz suite: never a 5xx, every 4xx in the error shape, 401 without the service token.
 */
@QuarkusTest
class InternalRouteFuzzTest {

    @Test
    void hostileRequestsGetA4xxInTheErrorShape() {
        FuzzSuite.of("voice-runtime")
                .endpoint(Endpoint.post("/internal/runtime/call/{id}/voicemail", "{\"answeredBy\":\"machine_start\"}"))
                .cases(300)
                .run();
    }
}
