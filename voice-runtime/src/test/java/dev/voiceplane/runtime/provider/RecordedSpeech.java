package dev.voiceplane.runtime.provider;

import java.io.ByteArrayOutputStream;
import java.util.List;

/** What one piece's listener heard (called on the call's context, read from the test's thread). */
public final class RecordedSpeech implements TextToSpeech.Listener {

    private final String name;
    private final List<String> ends;
    private final ByteArrayOutputStream audio = new ByteArrayOutputStream();
    private boolean done;
    private ProviderError failure;

    /** {@code ends} hears {@code name} when the piece is done or failed (several pieces: the order they ended in). */
    public RecordedSpeech(String name, List<String> ends) {
        this.name = name;
        this.ends = ends;
    }

    @Override
    public synchronized void audio(byte[] bytes) {
        if (done || failure != null) {
            throw new AssertionError(name + " heard audio after its end");
        }
        audio.writeBytes(bytes);
    }

    @Override
    public synchronized void done() {
        if (done || failure != null) {
            throw new AssertionError(name + " ended twice");
        }
        done = true;
        ends.add(name);
    }

    @Override
    public synchronized void failed(ProviderError error) {
        if (done || failure != null) {
            throw new AssertionError(name + " ended twice");
        }
        failure = error;
        ends.add(name);
    }

    public synchronized byte[] audio() {
        return audio.toByteArray();
    }

    public synchronized int bytes() {
        return audio.size();
    }

    public synchronized boolean isDone() {
        return done;
    }

    public synchronized ProviderError failure() {
        return failure;
    }

    public synchronized boolean over() {
        return done || failure != null;
    }
}
