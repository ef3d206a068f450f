package dev.voiceplane.runtime.recording;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The office loop: its length and level, the same every time, and no click where it wraps. */
class OfficeAmbienceTest {

    @Test
    void aQuietSeamlessLoopAtEachRate() {
        for (int rate : new int[] {8000, 16000}) {
            short[] loop = OfficeAmbience.loop(rate);
            assertEquals(rate * OfficeAmbience.SECONDS, loop.length);
            double sum = 0;
            int largestStep = 0;
            for (int i = 0; i < loop.length; i++) {
                sum += (double) loop[i] * loop[i];
                largestStep = Math.max(largestStep, Math.abs(loop[i] - loop[i == 0 ? loop.length - 1 : i - 1]));
            }
            double dbfs = 20 * Math.log10(Math.sqrt(sum / loop.length) / 32768);
            assertEquals(OfficeAmbience.TARGET_DBFS, dbfs, 0.5, "level at " + rate);
            // The wrap from the last sample to the first is no larger a step than the loop's own.
            int seam = Math.abs(loop[0] - loop[loop.length - 1]);
            assertTrue(seam <= largestStep, "seam " + seam + " vs " + largestStep);
            // Not a steady hiss: the murmur's phrases make its level move (per 100 ms, at least 6 dB apart).
            double quietest = 0;
            double loudest = -200;
            for (int w = 0; w + rate / 10 <= loop.length; w += rate / 10) {
                double s = 0;
                for (int i = w; i < w + rate / 10; i++) {
                    s += (double) loop[i] * loop[i];
                }
                double level = 10 * Math.log10(s / (rate / 10) / (32768.0 * 32768.0) + 1e-12);
                quietest = Math.min(quietest, level);
                loudest = Math.max(loudest, level);
            }
            assertTrue(loudest - quietest > 6, "levels from " + quietest + " to " + loudest);
            assertArrayEquals(loop, OfficeAmbience.loop(rate), "made the same every time");
        }
    }
}
