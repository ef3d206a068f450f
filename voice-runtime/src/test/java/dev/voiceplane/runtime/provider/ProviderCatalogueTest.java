package dev.voiceplane.runtime.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.contracts.catalog.Providers;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The API's catalogue of provider values, the runtime's provider beans and the list of values it refuses with a reason
 * are one list: a value the API accepts is either run here or refused with its documented reason, never silently
 * unknown (an assistant that the API accepts and whose every call then ends for no stated reason).
 */
@QuarkusTest
class ProviderCatalogueTest {

    @Inject
    ProviderDirectory providers;

    @Test
    void everyTranscriberTheApiAcceptsIsRunOrRefusedWithAReason() {
        assertCovered(ProviderDirectory.TRANSCRIBER, Providers.TRANSCRIBER);
    }

    @Test
    void everyModelTheApiAcceptsIsRunOrRefusedWithAReason() {
        assertCovered(ProviderDirectory.MODEL, Providers.MODEL);
    }

    @Test
    void everyVoiceTheApiAcceptsIsRunOrRefusedWithAReason() {
        assertCovered(ProviderDirectory.VOICE, Providers.VOICE);
    }

    private void assertCovered(String stage, Set<String> accepted) {
        List<String> served = providers.served().get(stage);
        Map<String, String> refused = ProviderDirectory.NOT_RUN.get(stage);
        Set<String> unaccounted = new TreeSet<>(accepted);
        unaccounted.removeAll(served);
        unaccounted.removeAll(refused.keySet());
        assertEquals(Set.of(), unaccounted, stage + " values the API accepts that the runtime neither runs nor refuses"
                + " with a reason (ProviderDirectory.NOT_RUN)");
        for (String value : refused.keySet()) {
            assertFalse(served.contains(value), stage + " " + value + " is both run and listed as refused");
            assertTrue(accepted.contains(value), stage + " " + value + " is listed as refused but the API does not"
                    + " accept it: take it out of ProviderDirectory.NOT_RUN");
            assertFalse(refused.get(value).isBlank(), stage + " " + value + " has no reason");
        }
        Set<String> runButNotAccepted = new TreeSet<>(served);
        runButNotAccepted.removeAll(accepted);
        runButNotAccepted.remove("elevenlabs"); // the older spelling of 11labs, which frozen assistants may hold
        assertEquals(Set.of(), runButNotAccepted, stage + " values the runtime runs that the API refuses");
    }
}
