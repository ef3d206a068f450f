package dev.voiceplane.runtime.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The recording's clock: where the caller's and the assistant's audio land, and what a clear removes. */
class TwoTracksTest {

    private static final long MS = 1_000_000L;
    private static final int RATE = 8000;

    private static short[] tone(int samples, short value) {
        short[] audio = new short[samples];
        Arrays.fill(audio, value);
        return audio;
    }

    private static List<short[]> read(TwoTracks tracks, long to) {
        List<short[]> out = new ArrayList<>();
        tracks.read(to, (caller, assistant) -> out.add(new short[] {caller, assistant}));
        return out;
    }

    @Test
    void theAssistantsFramesPlayInOrderAfterThoseAheadOfThemAndACallerFrameEndsWhenItArrives() {
        TwoTracks tracks = new TwoTracks(RATE, 0);
        // Three 20 ms frames sent at once at 100 ms: they play at 100, 120 and 140 ms.
        for (int i = 0; i < 3; i++) {
            tracks.assistant(tone(160, (short) 1000), 100 * MS);
        }
        // A caller frame arriving at 400 ms covers 380-400 ms.
        tracks.caller(tone(160, (short) 2000), 400 * MS);
        List<short[]> samples = read(tracks, RATE / 2);
        assertEquals(0, samples.get(799)[1]);
        assertEquals(1000, samples.get(800)[1]);
        assertEquals(1000, samples.get(1279)[1]);
        assertEquals(0, samples.get(1280)[1]);
        assertEquals(0, samples.get(3039)[0]);
        assertEquals(2000, samples.get(3040)[0]);
        assertEquals(2000, samples.get(3199)[0]);
        assertEquals(0, samples.get(3200)[0]);
    }

    @Test
    void aClearRemovesWhatHadNotPlayedAndTheNextFrameStartsThen() {
        TwoTracks tracks = new TwoTracks(RATE, 0);
        for (int i = 0; i < 10; i++) {
            tracks.assistant(tone(160, (short) 1000), 0);
        }
        // 200 ms queued; the caller barges in at 50 ms: 50-200 ms never played.
        tracks.cleared(50 * MS);
        tracks.assistant(tone(160, (short) 3000), 300 * MS);
        List<short[]> samples = read(tracks, RATE);
        assertEquals(1000, samples.get(399)[1]);
        assertEquals(0, samples.get(400)[1]);
        assertEquals(0, samples.get(2399)[1]);
        assertEquals(3000, samples.get(2400)[1]);
        assertEquals(3000, samples.get(2559)[1]);
        assertEquals(0, samples.get(2560)[1]);
    }

    @Test
    void theCallersFramesAreLaidEndToEndAndPulledBackAfterAGap() {
        TwoTracks tracks = new TwoTracks(RATE, 0);
        // Frames arriving a little late or early stay end to end (no clicks from jitter)...
        tracks.caller(tone(160, (short) 1), 20 * MS);
        tracks.caller(tone(160, (short) 2), 45 * MS);
        tracks.caller(tone(160, (short) 3), 58 * MS);
        // ...a second of nothing is a gap: the next frame lands where it arrived.
        tracks.caller(tone(160, (short) 4), 1100 * MS);
        List<short[]> samples = read(tracks, 2 * RATE);
        assertEquals(1, samples.get(0)[0]);
        assertEquals(2, samples.get(160)[0]);
        assertEquals(3, samples.get(320)[0]);
        assertEquals(0, samples.get(480)[0]);
        assertEquals(0, samples.get(8639)[0]);
        assertEquals(4, samples.get(8640)[0]);
    }

    @Test
    void audioIsFinalOnceOlderThanTheCallersSlackAndReadOnce() {
        TwoTracks tracks = new TwoTracks(RATE, 0);
        assertEquals(RATE - 2 * RATE / 10, tracks.finalAt(1000 * MS));
        read(tracks, tracks.finalAt(1000 * MS));
        assertEquals(RATE - 2 * RATE / 10, tracks.readTo());
        // Late audio for what was read out is dropped, not wrapped onto later audio.
        tracks.caller(tone(160, (short) 9), 100 * MS);
        assertEquals(0, read(tracks, RATE * 9L).stream().filter(sample -> sample[0] != 0).count());
    }
}
