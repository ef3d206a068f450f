package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** The ports a stack on VOICE_HTTP_PORT=0 (and the system tests' stack) takes: free, and below the ephemeral range. */
class PortBlockTest {

    @Test
    void aChosenBlockIsFreeAndBelowThePortsTheKernelHandsToOutgoingConnections() throws Exception {
        int size = 8;
        int first = LocalStack.freePortBlock(size);
        assertTrue(first >= 20000, "chosen from 20000 up: " + first);
        assertTrue(first + size <= LocalStack.ephemeralPortsFrom(),
                "the whole block is below the ephemeral range (" + LocalStack.ephemeralPortsFrom() + "): " + first);
        for (int port = first; port < first + size; port++) {
            int candidate = port;
            assertDoesNotThrow(() -> {
                try (ServerSocket socket = new ServerSocket()) {
                    socket.bind(new InetSocketAddress(candidate));
                }
            }, "port " + port + " of the block is free");
        }
    }
}
