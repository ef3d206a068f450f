package dev.voiceplane.file.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.voiceplane.kit.error.ApiException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class UploadGateTest {

    @Test
    void uploadsPastTheBoundWaitForATurn() throws Exception {
        UploadGate gate = new UploadGate(1, Duration.ofSeconds(30));
        UploadGate.Turn first = gate.enter();
        CompletableFuture<UploadGate.Turn> second = CompletableFuture.supplyAsync(gate::enter);
        assertEquals(0, gate.free());
        first.close();
        // The waiting upload gets the turn the first gave back (bounded wait, no sleep).
        try (UploadGate.Turn turn = second.get(10, TimeUnit.SECONDS)) {
            assertEquals(0, gate.free());
        }
        assertEquals(1, gate.free());
    }

    @Test
    void anUploadThatGetsNoTurnInTimeIs503AndHoldsNothing() {
        UploadGate gate = new UploadGate(2, Duration.ZERO);
        try (UploadGate.Turn a = gate.enter(); UploadGate.Turn b = gate.enter()) {
            ApiException refused = assertThrows(ApiException.class, gate::enter);
            assertEquals(503, refused.status());
            assertEquals(0, gate.free());
        }
        assertEquals(2, gate.free());
    }

    @Test
    void aTurnClosedTwiceGivesBackOnePermit() {
        UploadGate gate = new UploadGate(1, Duration.ZERO);
        UploadGate.Turn turn = gate.enter();
        turn.close();
        turn.close();
        assertEquals(1, gate.free());
    }

    @Test
    void aBoundBelowOneIsAConfigurationError() {
        assertThrows(IllegalArgumentException.class, () -> new UploadGate(0, Duration.ZERO));
    }
}
