import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The database of deploy/bench/startup: the local stack's embedded PostgreSQL (the same library and binaries, from
 * deploy/local/target/local-stack.jar's class path), without the stack's services and gateway, so that each service
 * can be started alone against it. Also writes an encryption keyset (credential-service needs one to start).
 *
 * <p>Usage: {@code java -cp deploy/local/target/local-stack.jar deploy/bench/startup-database.java <data directory>
 * <port>}. Prints {@code ready} once PostgreSQL accepts connections (user postgres, no password); stops it on
 * SIGTERM (the library's shutdown hook).
 */
public class StartupDatabase {

    public static void main(String[] args) throws Exception {
        Path data = Path.of(args[0]);
        int port = Integer.parseInt(args[1]);
        Files.createDirectories(data);
        Redirect log = Redirect.appendTo(data.resolve("postgres.log").toFile());
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(data.resolve("postgres"))
                .setCleanDataDirectory(false)
                .setPort(port)
                .setPGStartupWait(Duration.ofSeconds(60))
                .setOutputRedirector(log)
                .setErrorRedirector(log)
                .start();
        AeadConfig.register();
        KeysetHandle keyset = KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
        Files.writeString(data.resolve("encryption-keyset.json"),
                TinkJsonProtoKeysetFormat.serializeKeyset(keyset, InsecureSecretKeyAccess.get()));
        System.out.println("ready " + postgres.getJdbcUrl("postgres", "postgres"));
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
