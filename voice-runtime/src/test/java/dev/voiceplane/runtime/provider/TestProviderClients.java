package dev.voiceplane.runtime.provider;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;

/** Provider clients as the runtime has them, outside Quarkus, for tests of one provider against its fake. */
public final class TestProviderClients {

    private TestProviderClients() {
    }

    /**
     * Clients on {@code vertx} whose settings are {@code config} (the fakes' base URLs); the deadlines of the runtime's
     * tests (first audio 4 s) and its provider timeout (10 s).
     */
    public static ProviderClients on(Vertx vertx, Map<String, String> config) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder();
        config.forEach(builder::withDefaultValue);
        return new ProviderClients(vertx, builder.build(), new ObjectMapper(), Duration.ofSeconds(10),
                Duration.ofSeconds(3), Duration.ofSeconds(3), Duration.ofSeconds(4));
    }
}
