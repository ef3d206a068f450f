package dev.voiceplane.runtime.fake;

import java.util.List;

/**
 * The "recognition" the transcriber fakes share (as {@link FakeDeepgram} does it): an energy detector (RMS over 20 ms
 * windows above a threshold) cuts one connection's audio into speech segments, and the k-th segment is "recognised" as
 * the k-th transcript of the connection's script (past its end, segments are empty). A segment ends after
 * {@code endpointMs} of silence (the vendor's own end of turn), or at once when the client forces it ({@link #endNow}).
 * Pauses under {@code hangoverMs} stay inside a segment (espeak-ng's pauses inside one sentence reach 200 ms). Time is
 * audio time (samples received), so a client may send faster than real time. Not thread-safe: one connection's event
 * loop drives it.
 */
final class ScriptedRecognizer {

    /** What the recognizer tells its fake, in audio seconds. */
    interface Events {
        void started(double at);

        /** Every {@code partialEveryMs} of speech: a growing prefix of the segment's words. */
        void partial(List<String> words, double at);

        /** The segment ended: its transcript (the script's text, "" past the end of the script). */
        void ended(String transcript, double start, double end);

        /** Every 20 ms window, after the above. */
        default void window(double at) {
        }
    }

    private final List<String> transcripts;
    private final int sampleRate;
    private final int windowSamples;
    private final double threshold;
    private final long endpointMs;
    private final long partialEveryMs;
    private final Events events;
    private short[] carry = new short[0];
    private long samples;
    private int segment;
    private boolean open;
    private double start;
    private double lastSpeech;
    private double nextPartial;
    private int partialWords;

    ScriptedRecognizer(List<String> transcripts, int sampleRate, double threshold, long endpointMs, long partialEveryMs,
            Events events) {
        this.transcripts = transcripts;
        this.sampleRate = sampleRate;
        this.windowSamples = sampleRate / 50;
        this.threshold = threshold;
        this.endpointMs = endpointMs;
        this.partialEveryMs = partialEveryMs;
        this.events = events;
    }

    /** Feeds PCM16 samples at the recognizer's rate. */
    void samples(short[] pcm) {
        short[] all = new short[carry.length + pcm.length];
        System.arraycopy(carry, 0, all, 0, carry.length);
        System.arraycopy(pcm, 0, all, carry.length, pcm.length);
        int offset = 0;
        while (all.length - offset >= windowSamples) {
            short[] window = java.util.Arrays.copyOfRange(all, offset, offset + windowSamples);
            offset += windowSamples;
            samples += windowSamples;
            window(SpeechFixtures.rms(window) > threshold);
            events.window(now());
        }
        carry = java.util.Arrays.copyOfRange(all, offset, all.length);
    }

    double now() {
        return (double) samples / sampleRate;
    }

    boolean inSegment() {
        return open;
    }

    /** Audio seconds of the open segment's start. */
    double segmentStart() {
        return start;
    }

    /** Audio seconds of the last speech window. */
    double lastSpeech() {
        return lastSpeech;
    }

    /** The number of segments ended so far. */
    int segments() {
        return segment;
    }

    private void window(boolean speech) {
        double now = now();
        if (speech) {
            lastSpeech = now;
            if (!open) {
                open = true;
                start = now - 0.02;
                nextPartial = start + partialEveryMs / 1000.0;
                partialWords = 0;
                events.started(start);
            }
            if (now >= nextPartial) {
                nextPartial += partialEveryMs / 1000.0;
                List<String> words = words(segment);
                partialWords = Math.min(words.size(), partialWords + 1);
                if (partialWords > 0) {
                    events.partial(words.subList(0, partialWords), now);
                }
            }
            return;
        }
        if (open && (now - lastSpeech) * 1000 >= endpointMs) {
            endNow();
        }
    }

    /** Ends the open segment now (its {@link Events#ended} is told); false when none is open. */
    boolean endNow() {
        if (!open) {
            return false;
        }
        open = false;
        String transcript = segment < transcripts.size() ? transcripts.get(segment).trim() : "";
        segment++;
        events.ended(transcript, start, Math.max(lastSpeech, start));
        return true;
    }

    /** Drops the open segment unheard: no {@link Events#ended}, and its transcript stays the next segment's. */
    void discard() {
        open = false;
    }

    List<String> words(int k) {
        if (k >= transcripts.size() || transcripts.get(k).isBlank()) {
            return List.of();
        }
        return List.of(transcripts.get(k).trim().split("\\s+"));
    }

    /** The words a transcript is heard as before formatting: lower case, no punctuation. */
    static String unformatted(String transcript) {
        return transcript.toLowerCase(java.util.Locale.ROOT).replaceAll("[^\\p{L}\\p{N}' ]", "").trim();
    }

    /** A query string's parameters, decoded; a repeated name keeps all its values. */
    static java.util.Map<String, List<String>> parseQuery(String query) {
        java.util.Map<String, List<String>> params = new java.util.LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return params;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = java.net.URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq),
                    java.nio.charset.StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : java.net.URLDecoder.decode(pair.substring(eq + 1),
                    java.nio.charset.StandardCharsets.UTF_8);
            params.computeIfAbsent(name, k -> new java.util.ArrayList<>()).add(value);
        }
        return params;
    }

    static String first(java.util.Map<String, List<String>> query, String name, String fallback) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? fallback : values.get(0);
    }
}
