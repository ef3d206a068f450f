package dev.voiceplane.contracts.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProvidersTest {

    @Test
    void theMessageListsTheValuesInTheirOrder() {
        assertEquals("transcriber.provider must be one of the following values: 11labs, assembly-ai, azure, cartesia,"
                + " custom-transcriber, deepgram, gladia, google, openai, soniox, speechmatics, talkscriber",
                Providers.mustBeOneOf("transcriber.provider", Providers.TRANSCRIBER));
        assertEquals("must be one of the following values: off, office",
                Providers.mustBeOneOf(new LinkedHashSet<>(List.of("off", "office"))));
    }

    @Test
    void neutralWordsStandForTheRealIdentifiers() {
        assertEquals("openai", Providers.canonical("llmA"));
        assertEquals("twilio", Providers.canonical("carrierA"));
        assertEquals("anthropic", Providers.canonical("anthropic"));
    }
}
