package dev.voiceplane.kit.testing;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stands in for the other services in a service's own tests: one WireMock server on a free port, started once
 * per Quarkus application, whose address is given to every configuration property named in the
 * {@value #URL_PROPERTIES} argument (comma-separated), e.g.
 * {@code @QuarkusTestResource(value = WireMockService.class, initArgs = @ResourceArg(name = "url-properties",
 * value = "quarkus.rest-client.file-service.url"))}. Tests receive the server in a field annotated
 * {@link InjectWireMock}; they stub by request content of their own so that no test depends on another.
 */
public class WireMockService implements QuarkusTestResourceLifecycleManager {

    public static final String URL_PROPERTIES = "url-properties";

    private List<String> urlProperties = List.of();
    private WireMockServer server;

    @Override
    public void init(Map<String, String> initArgs) {
        String configured = initArgs.getOrDefault(URL_PROPERTIES, "");
        urlProperties = Arrays.stream(configured.split(",")).map(String::strip).filter(name -> !name.isEmpty()).toList();
    }

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(WireMockConfiguration.options().dynamicPort().containerThreads(16));
        server.start();
        Map<String, String> config = new LinkedHashMap<>();
        for (String property : urlProperties) {
            config.put(property, server.baseUrl());
        }
        return config;
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(server,
                new TestInjector.AnnotatedAndMatchesType(InjectWireMock.class, WireMockServer.class));
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }
}
