package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.media.MediaChannel;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.ToolCall;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One reply of the assistant as the caller hears it (the model's answer to a caller turn, or a scripted text: the
 * first message, the goodbye, the voicemail message): its pieces of speech, played in order through the call's
 * {@link Egress} however their audio arrives, each followed by a mark; what of it was heard by a given time
 * ({@link #heard}); and its end, once every piece has played (the far end names the marks back, or the playback
 * clock says so).
 *
 * <p>A turn is current from its start until it has played, is cancelled ({@link #cancel}, the one place that stops
 * everything it has in flight) or the call begins another. Whatever calls back into it later — a provider's
 * listener, a timer — goes through {@link #guard}: moved onto the call's context and dropped once the turn is no
 * longer current. Runs on the call's context.
 */
final class Turn {

    private static final long MS = 1_000_000L;
    private static final long MARK_GRACE_MILLIS = 1_000;

    /** What the call hears of its turn. */
    interface Listener {
        /** The turn's first audio is going out. */
        void audible(Turn turn);

        /** Every piece of the turn has played (at once when it had none); the turn is no longer current. */
        void played(Turn turn);
    }

    /** One piece of the turn's speech: its text, its audio as it comes, and when it plays. */
    final class Piece {
        private final int index;
        private String text;
        private final List<byte[]> held = new ArrayList<>();
        /** The provider's id of this piece's audio (a realtime model's output item; null: none). */
        String itemId;
        private long framesSent;
        private long lastFramePlaysAt;
        private Runnable cancel;
        private boolean spoken;
        private boolean marked;
        private boolean played;
        private long playsAt;
        private long endsAt;
        private long bytes;

        private Piece(int index, String text) {
            this.index = index;
            this.text = text;
        }

        /** What stops this piece's speech request (run when the turn is cancelled). */
        void cancelWith(Runnable cancel) {
            this.cancel = cancel;
        }

        /** Whether this is the turn's first piece and none of its audio has come yet. */
        boolean firstAudioAwaited() {
            return index == 0 && bytes == 0;
        }

        /** Audio of this piece: played now when the pieces before it are all out, else held until they are. */
        void audio(byte[] audio) {
            bytes += audio.length;
            if (next == index && !held()) {
                play(this, audio);
            } else {
                held.add(audio);
            }
        }

        /** All of this piece's audio has come. */
        void spoken() {
            spoken = true;
            advance();
        }

        /** Its first frame goes out, to play at {@code nanos} (Egress). */
        void starts(long nanos) {
            playsAt = nanos;
        }

        /** One more of its frames went out, to play at {@code nanos} (Egress). */
        void framePlays(long nanos) {
            framesSent++;
            lastFramePlaysAt = nanos;
        }

        /** Its words, as they become known (a realtime model's transcript comes with its audio). */
        void text(String words) {
            text = words;
        }

        String text() {
            return text;
        }

        /**
         * How much of its audio had been played by {@code at} (milliseconds): its frames sent that had begun to play
         * then, 20 ms each (a far end's player counts a frame once it starts it, as a clear drops only the frames
         * after it).
         */
        long playedMillis(long at) {
            if (framesSent == 0 || at < playsAt) {
                return 0;
            }
            long notStarted = lastFramePlaysAt > at ? (lastFramePlaysAt - at + 20 * MS - 1) / (20 * MS) : 0;
            return Math.max(0, framesSent - notStarted) * 20;
        }

        /** Its mark went out after its last frame, which ends playing at {@code nanos} (Egress). */
        void queued(long nanos) {
            endsAt = nanos;
        }
    }

    /** The turn's number; its pieces' marks are named {@code r<id>-<index>}. */
    final int id;
    /** The caller's words this turn answers (null: a scripted turn). */
    final String userText;
    /** Everything the turn says, as given to it (what the transcript records once it has played). */
    final StringBuilder text = new StringBuilder();
    /** A preemptive reply's hold: nothing of it goes out until it is released ({@link #release}) or dropped. */
    static final long HELD = Long.MAX_VALUE;
    /** When the turn was decided on, and nothing of it goes out before {@link #holdUntil} (nanoTime). */
    final long decidedAt = System.nanoTime();
    long holdUntil;
    /** When the caller stopped speaking (nanoTime; 0 once the turn's first frame was measured, or none). */
    long speechEndedAt;
    /** When the model was first asked, answered first, and the first audio came (nanoTime, for the metrics). */
    long modelRequestedAt;
    long firstTokenAt;
    long firstAudioAt;
    /** The caller's transcript line, reported once the turn is audible (or the call ends); null after. */
    Map<String, Object> userMessage;
    /** The call ends with this reason once the turn has played (null: it goes on). */
    String endReason;
    /** The turn ran tools: it is not withdrawn when the caller goes on speaking. */
    boolean toolsUsed;

    private final Egress egress;
    private final MediaChannel channel;
    private final Context context;
    private final Vertx vertx;
    private final Listener listener;
    private final List<Piece> pieces = new ArrayList<>();
    private int next;
    private boolean done;
    private boolean current = true;
    private boolean audible;
    private long audibleAtMillis;
    private long completionTimer = -1;
    private Runnable work;

    Turn(int id, String userText, long speechEndedAt, long holdUntil, Egress egress, MediaChannel channel,
            Context context, Listener listener) {
        this.id = id;
        this.userText = userText;
        this.speechEndedAt = speechEndedAt;
        this.holdUntil = holdUntil;
        this.egress = egress;
        this.channel = channel;
        this.context = context;
        this.vertx = context.owner();
        this.listener = listener;
    }

    // ---- what the turn says ----------------------------------------------------------------------------------

    /** A piece of speech of {@code text}, after those before it; its audio comes through {@link Piece#audio}. */
    Piece piece(String text) {
        Piece piece = new Piece(pieces.size(), text);
        pieces.add(piece);
        return piece;
    }

    /** Adds words to what the turn says, a space between them and the words before when there is none. */
    void addWords(String words) {
        separateWords();
        text.append(words);
    }

    /** Ends what the turn says so far with a space, so that words added next do not run into it. */
    void separateWords() {
        if (!text.isEmpty() && !Character.isWhitespace(text.charAt(text.length() - 1))) {
            text.append(' ');
        }
    }

    /** Audio without words (a tool's), after the pieces before it. */
    void play(byte[] audio) {
        Piece piece = piece("");
        piece.spoken = true;
        piece.bytes = audio.length;
        piece.held.add(audio);
        advance();
    }

    /** Whether it is a preemptive reply not yet released: nothing of it is heard. */
    boolean held() {
        return holdUntil == HELD;
    }

    /** The caller's turn is confirmed: the held reply goes out from {@code at} (nanoTime), as any other would. */
    void release(long at) {
        holdUntil = at;
        egress.release(at);
        advance();
    }

    /** Whether {@link #done} was called. */
    boolean finished() {
        return done;
    }

    /** No piece follows: the turn ends once its pieces have played. */
    void done() {
        done = true;
        afterQueued();
    }

    /** What makes the turn's text now (the model's stream, or the tools it called): stopped when it is cancelled. */
    void working(Runnable cancel) {
        this.work = cancel;
    }

    // ---- its state -------------------------------------------------------------------------------------------

    boolean current() {
        return current;
    }

    /** Whether its audio started going out. */
    boolean audible() {
        return audible;
    }

    /** When its audio started going out (wall clock; 0 before). */
    long audibleAtMillis() {
        return audibleAtMillis;
    }

    /** The far end played the audio before the mark {@code name} (or dropped it on a clear). */
    void markPlayed(String name) {
        if (!name.startsWith("r" + id + "-")) {
            return;
        }
        int index;
        try {
            index = Integer.parseInt(name.substring(name.indexOf('-') + 1));
        } catch (NumberFormatException e) {
            return;
        }
        if (index >= 0 && index < pieces.size()) {
            pieces.get(index).played = true;
            maybeComplete();
        }
    }

    /** The first piece not wholly played by {@code at} (the one playing then, or the next to), or null. */
    Piece playingAt(long at) {
        for (Piece piece : pieces) {
            if (piece.played || (piece.marked && piece.endsAt > 0 && piece.endsAt <= at)) {
                continue;
            }
            return piece;
        }
        return null;
    }

    /** The piece whose audio is the provider's item {@code itemId}, or null. */
    Piece pieceOf(String itemId) {
        for (Piece piece : pieces) {
            if (itemId.equals(piece.itemId)) {
                return piece;
            }
        }
        return null;
    }

    /** The text of the pieces heard by {@code at}: whole pieces played, and the words of the one playing. */
    String heard(long at) {
        StringBuilder heard = new StringBuilder();
        for (Piece piece : pieces) {
            if (piece.played || (piece.marked && piece.endsAt > 0 && piece.endsAt <= at)) {
                heard.append(piece.text).append(' ');
                continue;
            }
            if (piece.playsAt > 0 && piece.playsAt < at) {
                long duration = piece.endsAt > piece.playsAt ? piece.endsAt - piece.playsAt
                        : (long) (channel.format().seconds(piece.bytes) * 1e9);
                double fraction = duration <= 0 ? 0 : Math.min(1, (double) (at - piece.playsAt) / duration);
                String[] words = piece.text.split("\\s+");
                int count = (int) Math.floor(words.length * fraction);
                heard.append(String.join(" ", Arrays.copyOf(words, count)));
            }
            break;
        }
        return heard.toString().trim();
    }

    // ---- its end ---------------------------------------------------------------------------------------------

    /** Stops everything the turn has in flight (its text's making, its speech requests, its clock); late calls drop. */
    void cancel() {
        current = false;
        if (work != null) {
            work.run();
        }
        for (Piece piece : pieces) {
            if (piece.cancel != null) {
                piece.cancel.run();
            }
        }
        if (completionTimer >= 0) {
            vertx.cancelTimer(completionTimer);
        }
    }

    /** The call began another turn: nothing more of this one reaches the caller (its requests run out unheard). */
    void retire() {
        current = false;
    }

    /** Runs {@code action} on the call's context, unless the turn is no longer current by then. */
    void guarded(Runnable action) {
        if (Vertx.currentContext() == context) {
            if (current) {
                action.run();
            }
        } else {
            context.runOnContext(ignored -> {
                if (current) {
                    action.run();
                }
            });
        }
    }

    /** The model's listener, called only while the turn is current (on the call's context). */
    LanguageModel.Listener guard(LanguageModel.Listener model) {
        return new LanguageModel.Listener() {
            @Override
            public void text(String delta) {
                guarded(() -> model.text(delta));
            }

            @Override
            public void toolCalls(List<ToolCall> calls) {
                guarded(() -> model.toolCalls(calls));
            }

            @Override
            public void done(long promptTokens, long completionTokens) {
                guarded(() -> model.done(promptTokens, completionTokens));
            }

            @Override
            public void failed(ProviderError error) {
                guarded(() -> model.failed(error));
            }
        };
    }

    /** A voice's listener, called only while the turn is current (on the call's context). */
    TextToSpeech.Listener guard(TextToSpeech.Listener voice) {
        return new TextToSpeech.Listener() {
            @Override
            public void audio(byte[] audio) {
                guarded(() -> voice.audio(audio));
            }

            @Override
            public void done() {
                guarded(voice::done);
            }

            @Override
            public void failed(ProviderError error) {
                guarded(() -> voice.failed(error));
            }
        };
    }

    /** The number of words in {@code text}. */
    static int words(CharSequence text) {
        String trimmed = text.toString().trim();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }

    // ---- the playout -----------------------------------------------------------------------------------------

    private void play(Piece piece, byte[] audio) {
        if (!audible) {
            audible = true;
            audibleAtMillis = System.currentTimeMillis();
            firstAudioAt = System.nanoTime();
            listener.audible(this);
        }
        egress.audio(audio, piece);
    }

    /** Moves on past pieces whose audio is all queued, in order, releasing what the next one already holds. */
    private void advance() {
        if (held()) {
            return; // a preemptive reply keeps its audio in its pieces until it is released
        }
        while (next < pieces.size()) {
            Piece piece = pieces.get(next);
            for (byte[] held : piece.held) {
                play(piece, held);
            }
            piece.held.clear();
            if (!piece.spoken) {
                return;
            }
            egress.mark("r" + id + "-" + piece.index, piece);
            piece.marked = true;
            next++;
        }
        afterQueued();
    }

    private boolean allQueued() {
        return done && next == pieces.size();
    }

    private void afterQueued() {
        if (!allQueued() || completionTimer >= 0 || held()) {
            return;
        }
        if (pieces.isEmpty()) {
            complete();
            return;
        }
        // Marks come back as the audio plays; the playback clock is the fallback should a far end not echo them.
        armCompletion();
        maybeComplete();
    }

    private void armCompletion() {
        // A far end that names no marks back (Vonage) has only the clock: the turn is over when it has played.
        long wait = Math.max(1, (egress.drainsAtNanos() - System.nanoTime()) / MS
                + (channel.echoesMarks() ? MARK_GRACE_MILLIS : 0));
        completionTimer = vertx.setTimer(wait, timer -> guarded(() -> {
            if (egress.drainsAtNanos() - System.nanoTime() > 0) {
                armCompletion();
            } else {
                complete();
            }
        }));
    }

    private void maybeComplete() {
        if (allQueued() && pieces.stream().allMatch(piece -> piece.played)) {
            complete();
        }
    }

    private void complete() {
        if (!current) {
            return;
        }
        current = false;
        if (completionTimer >= 0) {
            vertx.cancelTimer(completionTimer);
        }
        listener.played(this);
    }
}
