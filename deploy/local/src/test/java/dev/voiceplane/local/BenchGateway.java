package dev.voiceplane.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * The local gateway alone in front of one voice runtime, for {@code BENCH_VIA_GATEWAY} of {@code deploy/bench/runtime}:
 * the same {@link Gateway} as {@code deploy/local/up} starts ({@link LocalStack}), with the Ingress manifest's routes
 * (without the console's, which LocalStack adds),
 * forwarding {@code voice-runtime} to a runtime already running on this machine, so that the bench's callers reach the
 * runtime through it as carriers reach it through the Ingress.
 *
 * <p>Usage: {@code BenchGateway <repository root> <voice-runtime port> <port file>}: listens on a free port, writes it
 * to the port file once listening, and runs until the process is stopped.
 */
public final class BenchGateway {

    private BenchGateway() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: BenchGateway <repository root> <voice-runtime port> <port file>");
        }
        // The manifest LocalStack reads (LocalStack.INGRESS), read directly: LocalStack itself needs the whole stack's
        // class path, the gateway only its own few classes (the script compiles them against the runtime's).
        Gateway gateway = new Gateway(IngressRoutes.read(Path.of(args[0]).resolve("deploy/k8s/base/ingress.yaml")));
        int port = gateway.listen(0);
        gateway.forwardTo(Map.of("voice-runtime", Integer.parseInt(args[1])));
        Path file = Path.of(args[2]);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, port + "\n");
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("gateway on port " + port + " (" + gateway.transport() + ") to voice-runtime on " + args[1]);
        Thread.currentThread().join();
    }
}
