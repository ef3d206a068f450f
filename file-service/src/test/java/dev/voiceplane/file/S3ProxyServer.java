package dev.voiceplane.file;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3-compatible server for the S3 store's tests: S3Proxy (its self-contained jar, copied by the build to
 * {@code target/s3proxy}) in its own JVM, over jclouds' filesystem store in a temporary directory. Its own process
 * because its 150 jars (Jetty, jclouds, Guice) have no place on a Quarkus test classpath. One per test JVM.
 */
public class S3ProxyServer implements QuarkusTestResourceLifecycleManager {

    public static final String BUCKET = "voiceplane-test";
    public static final String IDENTITY = "test-identity";
    public static final String CREDENTIAL = "test-credential";

    private static Process process;
    private static String endpoint;

    /** Starts the server once (later calls reuse it) and makes the test bucket; its endpoint URL. */
    public static synchronized String endpoint() {
        if (endpoint != null) {
            return endpoint;
        }
        String jar = System.getProperty("voice.test.s3proxy-jar", "target/s3proxy/s3proxy.jar");
        if (!Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("S3Proxy jar missing at " + jar + ": run the tests through Maven");
        }
        try {
            Path dir = Files.createTempDirectory("s3proxy");
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            String url = "http://127.0.0.1:" + port;
            Path properties = dir.resolve("s3proxy.properties");
            Files.writeString(properties, String.join("\n",
                    "s3proxy.endpoint=" + url,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + IDENTITY,
                    "s3proxy.credential=" + CREDENTIAL,
                    "jclouds.provider=filesystem",
                    "jclouds.filesystem.basedir=" + dir.resolve("blobs"),
                    "jclouds.identity=" + IDENTITY,
                    "jclouds.credential=" + CREDENTIAL, ""));
            Files.createDirectories(dir.resolve("blobs"));
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(List.of(java, "-Xmx256m", "-jar", jar, "--properties", properties.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("s3proxy.log").toFile())
                    .start();
            Process started = process;
            Runtime.getRuntime().addShutdownHook(new Thread(started::destroy));
            awaitListening(url, dir.resolve("s3proxy.log"));
            endpoint = url;
            try (S3Client s3 = client(url)) {
                s3.createBucket(create -> create.bucket(BUCKET));
            }
            return endpoint;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start S3Proxy", e);
        }
    }

    /** Polls (bounded) until the server answers HTTP at all. */
    private static void awaitListening(String url, Path log) throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Proxy exited: " + Files.readString(log));
            }
            try {
                http.send(HttpRequest.newBuilder(URI.create(url + "/")).timeout(Duration.ofSeconds(1)).build(),
                        HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException e) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(interrupted);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("S3Proxy did not start within 60 s: " + Files.readString(log));
    }

    public static S3Client client(String url) {
        return dev.voiceplane.file.store.FileStores.s3Client(settings(url));
    }

    public static dev.voiceplane.file.store.FileStores.S3Settings settings(String url) {
        return new dev.voiceplane.file.store.FileStores.S3Settings(BUCKET, java.util.Optional.of(url), "us-east-1",
                java.util.Optional.of(IDENTITY), java.util.Optional.of(CREDENTIAL), true);
    }

    @Override
    public Map<String, String> start() {
        return Map.of(
                "voice.file.store", "s3",
                "voice.file.s3.bucket", BUCKET,
                "voice.file.s3.endpoint", endpoint(),
                "voice.file.s3.access-key-id", IDENTITY,
                "voice.file.s3.secret-access-key", CREDENTIAL);
    }

    @Override
    public void stop() {
        // Shared by the test JVM; the shutdown hook ends the process.
    }
}
