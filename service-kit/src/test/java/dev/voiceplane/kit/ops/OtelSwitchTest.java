package dev.voiceplane.kit.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

class OtelSwitchTest {

    @Test
    void theSdkIsDisabledWithoutAnEndpoint() {
        assertEquals("true", new OtelSwitch(Map.of()).getValue(OtelSwitch.SDK_DISABLED));
        assertEquals("true", new OtelSwitch(Map.of("VOICE_OTEL_ENDPOINT", " ")).getValue(OtelSwitch.SDK_DISABLED));
    }

    @Test
    void anEndpointEnablesTheSdk() {
        OtelSwitch enabled = new OtelSwitch(Map.of("VOICE_OTEL_ENDPOINT", "http://collector:4317"));
        assertEquals("false", enabled.getValue(OtelSwitch.SDK_DISABLED));
    }

    @Test
    void itAnswersForNothingElseAndYieldsToApplicationProperties() {
        assertNull(new OtelSwitch(Map.of()).getValue("quarkus.otel.exporter.otlp.endpoint"));
        // application.properties (250), the environment (300) and system properties (400) override it.
        assertEquals(150, new OtelSwitch(Map.of()).getOrdinal());
    }
}
