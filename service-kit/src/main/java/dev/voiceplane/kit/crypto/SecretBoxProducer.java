package dev.voiceplane.kit.crypto;

import io.quarkus.runtime.LaunchMode;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/** Provides the {@link SecretBox} from {@code VOICE_ENCRYPTION_KEYSET}; only dev and test may generate one. */
@Singleton
public class SecretBoxProducer {

    private static final Logger LOG = Logger.getLogger(SecretBoxProducer.class);

    @Produces
    @Singleton
    SecretBox secretBox(@ConfigProperty(name = "voice.encryption.keyset") Optional<String> configured,
            @ConfigProperty(name = "voice.encryption.generate-dev-keyset", defaultValue = "false") boolean generateDevKeyset) {
        Optional<String> keyset = configured.filter(value -> !value.isBlank());
        if (keyset.isPresent()) {
            return SecretBox.fromKeysetJson(keyset.get());
        }
        if (generateDevKeyset && LaunchMode.current() != LaunchMode.NORMAL) {
            LOG.warn("VOICE_ENCRYPTION_KEYSET is not set: using a throw-away keyset; secrets written now are lost at restart");
            return SecretBox.fromKeysetJson(SecretBox.generateKeysetJson());
        }
        throw new IllegalStateException("VOICE_ENCRYPTION_KEYSET must hold a Tink JSON keyset "
                + "(deploy/local/up generates one for local runs; see README, Configuration)");
    }
}
