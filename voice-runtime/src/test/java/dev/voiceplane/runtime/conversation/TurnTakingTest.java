package dev.voiceplane.runtime.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** How a call's turn-taking is read from the speaking plans or, without them, from the era's fields. */
class TurnTakingTest {

    private final ObjectMapper json = new ObjectMapper();

    private TurnTaking read(String assistant) throws Exception {
        return CallPlan.read(UUID.randomUUID(), "org", json.readTree(
                "{\"call\":{\"type\":\"webCall\"},\"assistant\":" + assistant + "}")).turnTaking();
    }

    @Test
    void withoutThePlansTheErasFieldsKeepTheirMeaning() throws Exception {
        TurnTaking era = read("{\"responseDelaySeconds\":0.7,\"numWordsToInterruptAssistant\":3}");
        assertEquals(0.7, era.waitSeconds());
        assertEquals(3, era.interruptWords());
        assertNull(era.endpointing(), "no transcription rules unless given");
        assertEquals(0, era.voiceSeconds());
        assertEquals(0, era.backoffSeconds());
        TurnTaking defaults = read("{}");
        assertEquals(CallPlan.DEFAULT_RESPONSE_DELAY, defaults.waitSeconds());
        assertNull(defaults.interruptWords(), "the voice interrupts");
    }

    @Test
    void thePlansReplaceTheErasFieldsWithTheSdksDefaults() throws Exception {
        TurnTaking plans = read("""
                {"responseDelaySeconds":0.7,"numWordsToInterruptAssistant":3,
                 "startSpeakingPlan":{"waitSeconds":1.2,"transcriptionEndpointingPlan":{},
                                      "smartEndpointingPlan":{"provider":"livekit"},"customEndpointingRules":[{}]},
                 "stopSpeakingPlan":{"numWords":0}}""");
        assertEquals(1.2, plans.waitSeconds());
        assertEquals(new TurnTaking.Endpointing(0.1, 1.5, 0.5), plans.endpointing());
        assertNull(plans.interruptWords(), "numWords 0: the voice alone");
        assertEquals(0.2, plans.voiceSeconds());
        assertEquals(1.0, plans.backoffSeconds());
        assertEquals(List.of("startSpeakingPlan.smartEndpointingPlan (livekit)",
                "startSpeakingPlan.customEndpointingRules"), plans.notRun());
        assertEquals(0.7, read("{\"responseDelaySeconds\":0.7,\"startSpeakingPlan\":{}}").waitSeconds(),
                "a plan without waitSeconds leaves responseDelaySeconds");
        assertEquals(2, read("{\"stopSpeakingPlan\":{\"numWords\":1.5}}").interruptWords());
    }

    @Test
    void theTranscriptionRulesGoByHowTheWordsEnd() {
        TurnTaking.Endpointing rules = new TurnTaking.Endpointing(0.1, 1.5, 0.5);
        assertEquals(0.1, rules.secondsFor("When do you open?"));
        assertEquals(0.1, rules.secondsFor("Thanks. "));
        assertEquals(1.5, rules.secondsFor("I would like to"));
        assertEquals(1.5, rules.secondsFor("well,"));
        assertEquals(0.5, rules.secondsFor("My number is 0 7 9 1 1."), "a number, even punctuated");
        assertEquals(0.5, rules.secondsFor("Table 12"));
        assertEquals(0.1, rules.secondsFor("好的。"));
    }

    @Test
    void phrasesMatchWholeWordsWhateverTheCaseAndPunctuation() throws Exception {
        TurnTaking plans = read("""
                {"stopSpeakingPlan":{"acknowledgementPhrases":["yeah","mm-hmm","I see"],
                                     "interruptionPhrases":["stop","don't","hold on"]}}""");
        assertTrue(plans.acknowledgementOnly("Yeah."));
        assertTrue(plans.acknowledgementOnly("Mm hmm, yeah, I see!"));
        assertFalse(plans.acknowledgementOnly("Yeah, but the price?"));
        assertFalse(plans.acknowledgementOnly(""));
        assertTrue(plans.interrupts("Stop!"));
        assertTrue(plans.interrupts("no, dont do that"));
        assertTrue(plans.interrupts("Hold on a second"));
        assertFalse(plans.interrupts("a stopover in Paris"));
        assertFalse(plans.interrupts("hold it"));
    }
}
