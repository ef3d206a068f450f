package dev.voiceplane.file.service;

import dev.voiceplane.file.extract.TextExtractor;
import dev.voiceplane.file.extract.TypeDetector;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The type detector, the bounded text extractor and the upload gate: {@code voice.file.extract.*, upload.*}. */
@ApplicationScoped
public class ExtractionBeans {

    @Produces
    @ApplicationScoped
    TypeDetector detector() {
        return new TypeDetector();
    }

    @Produces
    @ApplicationScoped
    TextExtractor extractor(@ConfigProperty(name = "voice.file.extract.max-chars") int maxChars,
            @ConfigProperty(name = "voice.file.extract.timeout") Duration timeout,
            @ConfigProperty(name = "voice.file.extract.threads") int threads) {
        return new TextExtractor(maxChars, timeout, threads);
    }

    @Produces
    @ApplicationScoped
    UploadGate uploadGate(@ConfigProperty(name = "voice.file.upload.concurrency") int concurrency,
            @ConfigProperty(name = "voice.file.upload.wait") Duration wait) {
        return new UploadGate(concurrency, wait);
    }

    void close(@Disposes TextExtractor extractor) {
        extractor.close();
    }
}
