package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.audio.VoiceDetector;
import dev.voiceplane.runtime.ops.RuntimeMetrics;
import dev.voiceplane.runtime.ops.RuntimeMetrics.Stage;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.ProviderDirectory;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSet;
import dev.voiceplane.runtime.provider.RealtimeModel;
import dev.voiceplane.runtime.provider.RealtimeRequest;
import dev.voiceplane.runtime.provider.RealtimeSession;
import dev.voiceplane.runtime.provider.RealtimeUsage;
import dev.voiceplane.runtime.provider.ToolCall;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The engine of a call on a speech-to-speech model (docs/voice-runtime.md, "Realtime models"): one
 * {@link RealtimeSession} hears the caller and speaks the replies. The model decides when the caller's turn ends
 * (its own voice activity detection) and begins a reply itself, which becomes the call's {@link Turn}; its audio
 * items are the turn's pieces, played through the call's egress like any other, with the words of each as they come.
 * Scripted turns (first message, goodbye, voicemail, a tool's messages) are replies the runtime asks for, with
 * instructions to say the text as written. A caller who speaks over an audible turn interrupts it: the call stops
 * it, the reply under way is cancelled, and the model's memory of the audio item playing is cut to what the caller
 * heard ({@code truncate} at the milliseconds played). Tool calls run through the call's {@link Tools} like the
 * cascade's; their results go back to the model, which then replies. An assistant with a speaking plan
 * ({@code startSpeakingPlan} or {@code stopSpeakingPlan}) on a model that allows it has its caller's turns ended by
 * the runtime's own voice detector instead, so that the plan is run: the utterance is committed and the reply asked
 * for by the runtime after {@code waitSeconds}, and a voice over the reply interrupts once it has lasted
 * {@code voiceSeconds}. Runs on the call's context.
 */
final class RealtimeEngine implements TurnEngine {

    private static final Logger LOG = Logger.getLogger(RealtimeEngine.class);
    private static final long MS = 1_000_000L;

    /** A reply asked for and not yet begun: the turn it belongs to, its piece (a scripted text's), whose text. */
    private record Asked(Turn turn, Turn.Piece piece, boolean textGiven) {
    }

    /** A reply of the model under way: its turn, what it says, the tools it calls. */
    private static final class Reply {
        final Turn turn;
        final Turn.Piece given;
        final boolean textGiven;
        final List<Turn.Piece> pieces = new ArrayList<>();
        final Set<String> itemsWithWords = new HashSet<>();
        final List<ToolCall> toolCalls = new ArrayList<>();

        Reply(Turn turn, Turn.Piece given, boolean textGiven) {
            this.turn = turn;
            this.given = given;
            this.textGiven = textGiven;
            if (given != null) {
                pieces.add(given);
            }
        }
    }

    private final Host host;
    private final Context context;
    private final RuntimeMetrics metrics;
    private final LiveMessages live;
    private final ToolRunners runners;
    private final Conversation.Parts parts;
    private final AudioFormat format;
    private RealtimeSession session;
    /** The runtime's voice detector, when the caller's turns are the runtime's to end; null: the model's. */
    private VoiceDetector vad;
    private boolean runtimeTurns;
    /** The caller's voice over an audible turn, counted until it has lasted {@code voiceSeconds} (runtime turns). */
    private boolean voiceWatched;
    private long voicedNanos;
    /** When the caller last interrupted a reply (nanoTime; 0: never), for {@code backoffSeconds}. */
    private long interruptedAt;
    private Tools tools;
    private final Map<String, Asked> asked = new HashMap<>();
    private final Map<String, Reply> replies = new HashMap<>();
    private int tags;
    private boolean callerSpeaking;
    private long callerStartedMillis;
    private long callerStoppedMillis;
    private long speechStoppedAt;
    private boolean wordsToInterruptNoted;

    RealtimeEngine(Host host, Conversation.Parts parts, ToolRunners runners, LiveMessages live) {
        this.host = host;
        this.parts = parts;
        this.context = parts.context();
        this.format = parts.channel().format();
        this.metrics = parts.metrics();
        this.live = live;
        this.runners = runners;
        open(host.plan(), parts.realtime());
    }

    /** Opens the session for {@code plan}: its instructions, tools and voice, and the conversation so far. */
    private void open(CallPlan plan, RealtimeModel model) {
        this.tools = new Tools(plan, runners, new ToolHost(), context, parts.channel().format());
        StringBuilder instructions = new StringBuilder();
        List<ChatMessage> conversation = new ArrayList<>();
        for (ChatMessage message : host.history()) {
            if ("system".equals(message.role())) {
                if (message.content() != null && !message.content().isBlank()) {
                    instructions.append(instructions.isEmpty() ? "" : "\n\n").append(message.content());
                }
            } else {
                conversation.add(message);
            }
        }
        ModelSettings settings = plan.model();
        String voice = plan.voice() == null ? null : plan.voice().voiceId();
        runtimeTurns = plan.turnTaking().planned() && model.takesRuntimeTurns();
        if (plan.turnTaking().planned() && !runtimeTurns) {
            LOG.infof("call %s: the speaking plans are not run: model %s of %s ends the caller's turns itself",
                    plan.callId(), settings.model(), settings.provider());
        }
        if (runtimeTurns && vad == null) {
            vad = parts.vad().open(context, format, new VoiceDetector.Listener() {
                @Override
                public void started() {
                    if (runtimeTurns && !host.ended()) {
                        callerStarted(false);
                    }
                }

                @Override
                public void stopped(long speechEndedAtNanos) {
                    if (runtimeTurns && !host.ended()) {
                        callerEnded(speechEndedAtNanos);
                    }
                }
            });
        }
        callerSpeaking = false;
        voiceWatched = false;
        session = model.open(new RealtimeRequest(settings.model(), instructions.toString(), tools.offered(null),
                voice, settings.temperature(), settings.maxTokens(), conversation, runtimeTurns), new Events(settings));
    }

    // ---- the caller ------------------------------------------------------------------------------------------

    @Override
    public void audio(byte[] audio) {
        session.audio(audio);
        if (!runtimeTurns) {
            return;
        }
        short[] pcm = format.toPcm(audio);
        vad.audio(pcm, System.nanoTime());
        if (voiceWatched && callerSpeaking) {
            voicedNanos += pcm.length * 1_000_000_000L / format.sampleRate();
            if (voicedNanos >= (long) (host.plan().turnTaking().voiceSeconds() * 1e9)) {
                voiceWatched = false;
                bargeIn();
            }
        }
    }

    @Override
    public boolean callerSpeaking() {
        return callerSpeaking;
    }

    @Override
    public boolean callerIdle() {
        return !callerSpeaking;
    }

    @Override
    public void forgetCaller() {
        // The model keeps what it heard; a machine's words make no reply (replies it begins are cancelled).
    }

    @Override
    public void turnPlayed() {
    }

    /**
     * The caller began speaking: told by the model ({@code byModel}), or by the runtime's detector. Over an audible
     * turn this is a barge-in at once, or, with the runtime's turns and {@code voiceSeconds}, once the voice has
     * lasted that long; a turn not yet audible is dropped.
     */
    private void callerStarted(boolean byModel) {
        host.callerSpeech(true);
        if (host.machine()) {
            return;
        }
        callerSpeaking = true;
        callerStartedMillis = System.currentTimeMillis();
        host.callerActive();
        if (!byModel) {
            session.callerStarted();
        }
        Turn current = host.turn();
        if (current == null || !host.running()) {
            return;
        }
        if (host.plan().turnTaking().interruptWords() != null && !wordsToInterruptNoted) {
            wordsToInterruptNoted = true;
            LOG.infof("call %s: numWordsToInterruptAssistant is not honoured by a realtime model (the caller's words"
                    + " come only once the caller stopped): the caller interrupts once speech starts",
                    host.plan().callId());
        }
        if (!current.audible()) {
            host.interrupt("caller spoke before the reply was heard");
            return;
        }
        double voiceSeconds = host.plan().turnTaking().voiceSeconds();
        if (!byModel && voiceSeconds > 0) {
            voiceWatched = true; // counted in audio(): a shorter voice (a backchannel, a cough) does not interrupt
            voicedNanos = 0;
            return;
        }
        bargeIn();
    }

    /** The caller speaks over the audible turn: it stops, and the model's memory of it is cut to what was heard. */
    private void bargeIn() {
        Turn current = host.turn();
        if (current == null || !host.running() || !current.audible()) {
            return;
        }
        interruptedAt = System.nanoTime();
        long at = System.nanoTime();
        Turn.Piece playing = current.playingAt(at);
        String item = playing == null ? null : playing.itemId;
        long heard = playing == null ? 0 : playing.playedMillis(at);
        List<String> unheard = new ArrayList<>();
        boolean after = false;
        for (Reply reply : replies.values()) {
            if (reply.turn == current) {
                for (Turn.Piece piece : reply.pieces) {
                    if (piece.itemId != null && piece != playing && piece.playedMillis(at) == 0) {
                        unheard.add(piece.itemId);
                    }
                }
            }
        }
        host.interrupt("caller spoke");
        if (item != null) {
            session.truncate(item, heard);
            LOG.debugf("call %s: the caller heard %d ms of the reply's audio", host.plan().callId(), heard);
        }
        for (String later : unheard) {
            if (!later.equals(item)) {
                session.truncate(later, 0);
            }
        }
    }

    private void speechStopped() {
        host.callerSpeech(false);
        if (host.machine()) {
            return;
        }
        callerSpeaking = false;
        callerStoppedMillis = System.currentTimeMillis();
        speechStoppedAt = System.nanoTime();
    }

    /**
     * The runtime's detector heard the caller stop: a voice that did not interrupt the audible turn is forgotten by
     * the model; else the caller's turn ends here, and the runtime asks for the reply (held {@code waitSeconds}
     * after the end of speech, and {@code backoffSeconds} after an interruption).
     */
    private void callerEnded(long speechEndedAtNanos) {
        speechStopped();
        if (host.machine()) {
            return;
        }
        boolean watched = voiceWatched;
        voiceWatched = false;
        Turn current = host.turn();
        if (watched && current != null && current.audible()) {
            session.callerDropped();
            return;
        }
        if (!host.running()) {
            return;
        }
        TurnTaking rules = host.plan().turnTaking();
        long hold = speechEndedAtNanos + (long) (rules.waitSeconds() * 1000) * MS;
        if (interruptedAt != 0) {
            hold = Math.max(hold, interruptedAt + (long) (rules.backoffSeconds() * 1000) * MS);
        }
        metrics.stage(Stage.END_OF_TURN, Math.max(0, System.nanoTime() - speechEndedAtNanos));
        Turn turn = host.begin("", speechEndedAtNanos, hold);
        turn.modelRequestedAt = System.nanoTime();
        String tag = tag(turn, null, false);
        live.awaitingReply();
        session.callerEnded(tag);
    }

    private void callerTranscript(String text) {
        if (text == null || text.isBlank() || host.machine()) {
            return;
        }
        live.transcript("user", "final", text);
        host.remember(new ChatMessage("user", text));
        long end = callerStoppedMillis >= callerStartedMillis ? callerStoppedMillis : System.currentTimeMillis();
        host.report(host.message("user", text, callerStartedMillis > 0 ? callerStartedMillis : end, end));
    }

    /**
     * A keypad entry: a caller line in the transcript now (as the model's transcripts of the caller's speech are), a
     * user text item of the session, then a reply asked for.
     */
    @Override
    public void keypadEntry(String text) {
        live.transcript("user", "final", text);
        host.remember(new ChatMessage("user", text));
        long now = System.currentTimeMillis();
        host.report(host.message("user", text, now, now));
        session.userText(text);
        Turn turn = host.begin(text, System.nanoTime(), 0);
        ask(turn, null, false, null);
        live.awaitingReply();
    }

    // ---- the replies -----------------------------------------------------------------------------------------

    /** Asks the model for a reply in {@code turn}: a scripted piece's ({@code textGiven}) or its own. */
    private void ask(Turn turn, Turn.Piece piece, boolean textGiven, String instructions) {
        session.respond(instructions, tag(turn, piece, textGiven));
    }

    /** A tag for a reply of {@code turn} about to be asked for; the turn's cancel stops it. */
    private String tag(Turn turn, Turn.Piece piece, boolean textGiven) {
        String tag = "t" + turn.id + "-" + (++tags);
        asked.put(tag, new Asked(turn, piece, textGiven));
        turn.working(() -> cancel(turn));
        return tag;
    }

    /** Stops everything of {@code turn}: the replies asked for, and the one under way. */
    private void cancel(Turn turn) {
        asked.entrySet().removeIf(entry -> {
            if (entry.getValue().turn() == turn) {
                session.cancel(entry.getKey());
                return true;
            }
            return false;
        });
        session.cancel(null);
    }

    @Override
    public void speak(Turn turn, String text) {
        Turn.Piece piece = turn.piece(text);
        ask(turn, piece, true, "Say exactly the following words, as they are written, and nothing else: " + text);
    }

    @Override
    public void replyAgain() {
        List<ChatMessage> history = host.history();
        String note = history.isEmpty() ? null : history.get(history.size() - 1).content();
        Turn turn = host.begin("", System.nanoTime(), 0);
        ask(turn, null, false, note);
    }

    private void responseStarted(String responseId, String tag) {
        Asked mine = tag == null ? null : asked.remove(tag);
        if (mine != null) {
            if (!mine.turn().current()) {
                session.cancel(null);
                return;
            }
            replies.put(responseId, new Reply(mine.turn(), mine.piece(), mine.textGiven()));
            return;
        }
        if (tag != null) {
            session.cancel(null); // a reply of a turn that is gone
            return;
        }
        // The model's own reply: the caller stopped speaking.
        if (host.machine() || !host.running()) {
            session.cancel(null);
            return;
        }
        long endedAt = speechStoppedAt == 0 ? System.nanoTime() : speechStoppedAt;
        speechStoppedAt = 0;
        metrics.stage(Stage.END_OF_TURN, Math.max(0, System.nanoTime() - endedAt));
        Turn turn = host.begin("", endedAt, endedAt + (long) (host.plan().turnTaking().waitSeconds() * 1000) * MS);
        turn.modelRequestedAt = System.nanoTime();
        turn.working(() -> cancel(turn));
        replies.put(responseId, new Reply(turn, null, false));
        live.awaitingReply();
    }

    /** The piece of the reply's item {@code itemId}: the scripted one first, else a new one. */
    private Turn.Piece piece(Reply reply, String itemId) {
        Turn.Piece piece = reply.turn.pieceOf(itemId);
        if (piece != null) {
            return piece;
        }
        if (reply.given != null && reply.given.itemId == null) {
            piece = reply.given;
        } else {
            piece = reply.turn.piece("");
            reply.pieces.add(piece);
        }
        piece.itemId = itemId;
        return piece;
    }

    private Reply current(String responseId) {
        Reply reply = replies.get(responseId);
        return reply != null && reply.turn.current() && host.turn() == reply.turn ? reply : null;
    }

    private void audio(String responseId, String itemId, byte[] audio) {
        Reply reply = current(responseId);
        if (reply == null) {
            return;
        }
        Turn.Piece piece = piece(reply, itemId);
        if (reply.turn.firstTokenAt == 0) {
            reply.turn.firstTokenAt = System.nanoTime();
            // A turn the runtime began itself (the first message, a scripted text) has no model request of a caller's
            // turn to time from: timed from 0, it would add a value of days to the histogram.
            if (reply.turn.modelRequestedAt > 0) {
                metrics.stage(Stage.LLM_FIRST_TOKEN, reply.turn.firstTokenAt - reply.turn.modelRequestedAt);
            }
        }
        piece.audio(audio);
    }

    private void transcriptDelta(String responseId, String itemId, String delta) {
        Reply reply = current(responseId);
        if (reply == null || reply.textGiven || delta.isEmpty()) {
            return;
        }
        Turn.Piece piece = piece(reply, itemId);
        reply.itemsWithWords.add(itemId);
        piece.text(piece.text() + delta);
        reply.turn.text.append(delta);
        live.modelOutput(delta);
    }

    private void transcriptDone(String responseId, String itemId, String transcript) {
        Reply reply = current(responseId);
        if (reply == null || reply.textGiven) {
            return;
        }
        Turn.Piece piece = piece(reply, itemId);
        piece.text(transcript);
        if (!reply.itemsWithWords.contains(itemId)) {
            Turn turn = reply.turn;
            turn.addWords(transcript);
        }
    }

    private void itemDone(String responseId, String itemId) {
        Reply reply = current(responseId);
        if (reply == null) {
            return;
        }
        Turn.Piece piece = reply.turn.pieceOf(itemId);
        if (piece != null) {
            piece.spoken();
        }
    }

    private void responseDone(String responseId, String status) {
        Reply reply = replies.remove(responseId);
        if (reply == null || !reply.turn.current() || host.turn() != reply.turn) {
            return;
        }
        for (Turn.Piece piece : reply.pieces) {
            piece.spoken(); // a scripted piece the model did not voice, or an item not closed: nothing more comes
        }
        Turn turn = reply.turn;
        if ("failed".equals(status)) {
            ProviderError error = ProviderError.unavailable(host.plan().model().provider(), "the reply failed");
            metrics.providerError(error.provider(), ProviderDirectory.MODEL, error.kind());
            host.providerFailed(ProviderDirectory.MODEL, error);
            return;
        }
        if (!reply.toolCalls.isEmpty() && !"cancelled".equals(status)) {
            turn.toolsUsed = true;
            List<ToolCall> calls = List.copyOf(reply.toolCalls);
            tools.called(turn, calls, cancel -> turn.working(() -> {
                cancel.run();
                cancel(turn);
            }));
            return;
        }
        if (!reply.textGiven && !turn.finished()) {
            turn.done();
        }
    }

    /** What the tools of a reply may do in it (see {@link Tools}). */
    private final class ToolHost implements Tools.Host {
        @Override
        public boolean current(Turn turn) {
            return host.turn() == turn && host.running();
        }

        @Override
        public void say(Turn turn, String text) {
            turn.addWords(text);
            speak(turn, text);
        }

        @Override
        public void play(Turn turn, byte[] audio) {
            turn.play(audio);
        }

        @Override
        public void proceed(Turn turn, String endReason) {
            if (endReason == null) {
                turn.separateWords(); // the next answer continues the turn's words
                ask(turn, null, false, null); // the model answers with the tools' results
                return;
            }
            turn.endReason = endReason;
            if (!turn.finished()) {
                turn.done();
            }
        }

        @Override
        public void remember(ChatMessage message) {
            host.remember(message);
            if ("tool".equals(message.role())) {
                session.toolResult(message.toolCallId(), message.content());
            }
        }
    }

    /** The session's events, on the call's context. */
    private final class Events implements RealtimeSession.Listener {
        /** The model of the session these events come from (a hand-off opens another session). */
        private final ModelSettings settings;

        Events(ModelSettings settings) {
            this.settings = settings;
        }

        @Override
        public void speechStarted() {
            onContext(() -> callerStarted(true));
        }

        @Override
        public void speechStopped() {
            onContext(RealtimeEngine.this::speechStopped);
        }

        @Override
        public void callerTranscript(String itemId, String text) {
            onContext(() -> RealtimeEngine.this.callerTranscript(text));
        }

        @Override
        public void responseStarted(String responseId, String tag) {
            onContext(() -> RealtimeEngine.this.responseStarted(responseId, tag));
        }

        @Override
        public void audio(String responseId, String itemId, byte[] audio) {
            onContext(() -> RealtimeEngine.this.audio(responseId, itemId, audio));
        }

        @Override
        public void transcriptDelta(String responseId, String itemId, String delta) {
            onContext(() -> RealtimeEngine.this.transcriptDelta(responseId, itemId, delta));
        }

        @Override
        public void transcriptDone(String responseId, String itemId, String transcript) {
            onContext(() -> RealtimeEngine.this.transcriptDone(responseId, itemId, transcript));
        }

        @Override
        public void itemDone(String responseId, String itemId) {
            onContext(() -> RealtimeEngine.this.itemDone(responseId, itemId));
        }

        @Override
        public void toolCall(String responseId, ToolCall call) {
            onContext(() -> {
                Reply reply = replies.get(responseId);
                if (reply != null) {
                    reply.toolCalls.add(call);
                }
            });
        }

        /** The reply's tokens go into the call's usage as the session's model's, whatever became of the reply. */
        @Override
        public void responseDone(String responseId, String status, RealtimeUsage usage) {
            onContext(() -> {
                host.usage().realtime(settings.provider(), settings.model(), usage);
                RealtimeEngine.this.responseDone(responseId, status);
            });
        }

        @Override
        public void failed(ProviderError error) {
            onContext(() -> {
                if (host.ended()) {
                    return;
                }
                metrics.providerError(error.provider(), ProviderDirectory.MODEL, error.kind());
                host.providerFailed(ProviderDirectory.MODEL, error);
            });
        }
    }

    /**
     * The turn's first frame went out: voice-to-voice (the model heard the caller stop → this frame) and the
     * runtime's own share of it, from the reply's first audio (or the end of {@code responseDelaySeconds}) to it.
     */
    @Override
    public void firstFrameSent(Turn turn, long sentAt) {
        if (turn.userText == null || turn.speechEndedAt == 0) {
            return;
        }
        metrics.stage(Stage.VOICE_TO_VOICE, sentAt - turn.speechEndedAt);
        metrics.stage(Stage.OWN, Math.max(0, sentAt - Math.max(turn.firstAudioAt, turn.holdUntil)));
        turn.speechEndedAt = 0;
    }

    // ---- a hand-off, the end ---------------------------------------------------------------------------------

    @Override
    public void switchTo(CallPlan next, ProviderSet providers) {
        RealtimeSession previous = session;
        asked.clear();
        replies.clear();
        previous.close();
        open(next, providers.realtime());
    }

    @Override
    public void close() {
        session.close();
        if (vad != null) {
            vad.close();
        }
    }

    private void onContext(Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(ignored -> action.run());
        }
    }
}
