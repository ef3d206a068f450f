package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalServiceTest {

    private static final Path HOME = Path.of("/repo");

    @Test
    void eachServiceKeepsItsPortWhicheverServicesTheIngressNames() {
        List<LocalService> all = LocalService.plan(List.of("credential-service", "assistant-service", "file-service",
                "call-service", "telephony-service"), HOME);
        List<LocalService> some = LocalService.plan(List.of("credential-service", "file-service"), HOME);

        assertEquals(List.of("assistant-service", "call-service", "telephony-service", "file-service",
                "credential-service"), all.stream().map(LocalService::name).toList());
        assertEquals(List.of(8081, 8082, 8083, 8084, 8085), all.stream().map(service -> service.port(8080)).toList());
        assertEquals(List.of(8084, 8085), some.stream().map(service -> service.port(8080)).toList());
    }

    @Test
    void aServiceOutsideThePortOrderComesAfterIt() {
        List<LocalService> services = LocalService.plan(List.of("billing-service", "credential-service"), HOME);

        assertEquals("credential-service", services.get(0).name());
        assertEquals(9005, services.get(0).port(9000));
        assertEquals("billing-service", services.get(1).name());
        assertEquals(9006, services.get(1).port(9000));
    }

    @Test
    void namesFollowTheServiceName() {
        LocalService telephony = LocalService.plan(List.of("telephony-service"), HOME).get(0);

        assertEquals("telephony", telephony.shortName());
        assertEquals("telephony", telephony.schema());
        assertEquals("telephony_service", telephony.role());
        assertEquals("TELEPHONY_SERVICE_URL", telephony.urlVariable());
        assertEquals(Path.of("/repo/telephony-service/target/quarkus-app/quarkus-run.jar"), telephony.jar());
    }
}
