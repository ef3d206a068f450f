package dev.voiceplane.file.store;

import dev.voiceplane.file.repository.BlobChunkRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.net.URI;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Makes the one {@link FileStore} the configuration names ({@code voice.file.store}). The S3 client is only built
 * when {@code s3} is chosen; an unknown value stops the service at start-up.
 */
@ApplicationScoped
public class FileStores {

    @Produces
    @ApplicationScoped
    FileStore fileStore(@ConfigProperty(name = "voice.file.store") String kind, BlobChunkRepository chunks,
            S3Settings s3) {
        return switch (kind.strip()) {
            case "postgres" -> new PostgresFileStore(chunks);
            case "s3" -> new S3FileStore(s3Client(s3), s3.bucket());
            default -> throw new IllegalStateException(
                    "voice.file.store (VOICE_FILE_STORE) must be postgres or s3, not " + kind);
        };
    }

    void close(@Disposes FileStore store) {
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // shutting down
            }
        }
    }

    /** The S3 settings ({@code voice.file.s3.*}, {@code VOICE_S3_*}); a singleton, so its fields are read directly. */
    @jakarta.inject.Singleton
    public static class S3Settings {
        private final String bucket;
        private final Optional<String> endpoint;
        private final String region;
        private final Optional<String> accessKeyId;
        private final Optional<String> secretAccessKey;
        private final boolean pathStyle;

        public S3Settings(@ConfigProperty(name = "voice.file.s3.bucket") String bucket,
                @ConfigProperty(name = "voice.file.s3.endpoint") Optional<String> endpoint,
                @ConfigProperty(name = "voice.file.s3.region") String region,
                @ConfigProperty(name = "voice.file.s3.access-key-id") Optional<String> accessKeyId,
                @ConfigProperty(name = "voice.file.s3.secret-access-key") Optional<String> secretAccessKey,
                @ConfigProperty(name = "voice.file.s3.path-style") boolean pathStyle) {
            this.bucket = bucket;
            this.endpoint = endpoint.filter(value -> !value.isBlank());
            this.region = region;
            this.accessKeyId = accessKeyId.filter(value -> !value.isBlank());
            this.secretAccessKey = secretAccessKey.filter(value -> !value.isBlank());
            this.pathStyle = pathStyle;
        }

        public String bucket() {
            return bucket;
        }
    }

    /**
     * The JDK's HttpURLConnection as transport (no Apache or Netty client on the classpath); static credentials when
     * both parts are configured, the SDK's default chain (environment, web identity, instance profile) otherwise.
     */
    public static S3Client s3Client(S3Settings settings) {
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .region(Region.of(settings.region))
                .forcePathStyle(settings.pathStyle)
                // Checksums only where S3 requires them: many S3-compatible stores refuse the SDK's newer defaults.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        settings.endpoint.ifPresent(endpoint -> builder.endpointOverride(URI.create(endpoint)));
        if (settings.accessKeyId.isPresent() && settings.secretAccessKey.isPresent()) {
            builder.credentialsProvider(StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(settings.accessKeyId.get(), settings.secretAccessKey.get())));
        } else {
            builder.credentialsProvider(DefaultCredentialsProvider.builder().build());
        }
        return builder.build();
    }
}
