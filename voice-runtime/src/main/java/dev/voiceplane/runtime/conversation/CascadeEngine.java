package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.audio.VoiceDetector;
import dev.voiceplane.runtime.ops.RuntimeMetrics;
import dev.voiceplane.runtime.ops.RuntimeMetrics.Stage;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ChatRequest;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.ModelUsage;
import dev.voiceplane.runtime.provider.ProviderDirectory;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSet;
import dev.voiceplane.runtime.provider.SpeechToText;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.ToolCall;
import dev.voiceplane.runtime.provider.TranscriberSettings;
import dev.voiceplane.runtime.provider.VoiceSettings;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The engine of a call that runs three providers in a row: the caller's speech stops (voice activity) → the
 * transcriber is asked to finalise → its final words end the turn → the model streams a reply (after
 * {@code llmRequestDelaySeconds}, with the knowledge base's passages and the call's tools) → the reply is cut into
 * pieces ({@link TextChunker}) → each piece is spoken by the voice into the call's {@link Turn}. A caller who speaks
 * over an audible turn interrupts it; one who goes on speaking before it is heard withdraws it, and the words join the
 * next turn. When the turn ends and what interrupts are the call's {@link TurnTaking} (docs/voice-runtime.md,
 * "Turn-taking"): the transcription rules may hold the end of the turn after the final words, the voice must last
 * {@code voiceSeconds} or the words reach {@code numWords}, acknowledgement phrases never interrupt and interruption
 * phrases always do, and a reply after an interruption is not heard before {@code backoffSeconds}. With preemptive
 * replies, the model and the voice start on the interim words as soon as the caller's speech stops, held unheard
 * until the final words confirm them (the same words: the reply is released) or not (it is dropped unheard, and the
 * model asked again). Runs on the call's context.
 */
final class CascadeEngine implements TurnEngine {

    private static final Logger LOG = Logger.getLogger(CascadeEngine.class);
    private static final long MS = 1_000_000L;
    private static final long FINALIZE_WAIT_MILLIS = 1_000;

    /** The model's reply to a caller turn while it is being made: its turn, and what only the making needs. */
    private static final class Reply {
        final Turn turn;
        final TextChunker chunker;
        /** The knowledge base's passages for this turn (null without a knowledge base). */
        Future<List<String>> passages;
        /** A preemptive reply not yet confirmed: its output and its tool calls wait (nothing of it is heard). */
        boolean held;
        final StringBuilder heldOutput = new StringBuilder();
        List<ToolCall> heldTools;

        Reply(Turn turn, TextChunker chunker) {
            this.turn = turn;
            this.chunker = chunker;
        }
    }

    private final Host host;
    private final Context context;
    private final Vertx vertx;
    private final AudioFormat format;
    private final RuntimeMetrics metrics;
    private final LiveMessages live;
    private final ToolRunners runners;
    private final VoiceDetector vad;
    private final boolean preemptive;
    /** The preemptive reply under way and the words it answers (null: none). */
    private Turn preempted;
    private String preemptedWords;
    private LanguageModel model;
    private TextToSpeech voice;
    private SpeechToText transcriber;
    private Tools tools;
    private Reply making;
    private final StringBuilder userText = new StringBuilder();
    private boolean transcriberEndedTurn;
    private boolean callerSpeaking;
    private long speechEndedAt;
    private long userTurnStartedMillis;
    private long finalizeTimer = -1;
    /** The transcription rules' wait after the final words (a timer), and whether it has passed for these words. */
    private long endpointTimer = -1;
    private boolean endpointWaited;
    /** The caller's voice over an audible turn, counted in their audio until it has lasted {@code voiceSeconds}. */
    private boolean voiceWatched;
    private boolean voiceLasted;
    private long voicedNanos;
    /** The latest interim words (what the transcriber has heard of the caller's speech so far). */
    private String interimText = "";
    /** When the caller last interrupted the assistant (nanoTime; 0: never). */
    private long interruptedAt;
    /** The transcriber and the voice in use: whose seconds and characters they are (a hand-off changes them). */
    private TranscriberSettings transcriberSettings;
    private VoiceSettings voiceSettings;

    CascadeEngine(Host host, Conversation.Parts parts, ToolRunners runners, LiveMessages live) {
        this.host = host;
        this.context = parts.context();
        this.vertx = context.owner();
        this.format = parts.channel().format();
        this.metrics = parts.metrics();
        this.live = live;
        this.runners = runners;
        this.preemptive = parts.preemptive();
        this.model = parts.model();
        this.voice = parts.voice();
        this.tools = new Tools(host.plan(), runners, new ToolHost(), context, format);
        this.transcriberSettings = host.plan().transcriber();
        this.voiceSettings = host.plan().voice();
        this.transcriber = parts.transcriber().open(new TranscriberEvents());
        logNotRun(host.plan());
        // Last: should anything above fail, no detector is left open.
        this.vad = parts.vad().open(context, format, new VoiceDetector.Listener() {
            @Override
            public void started() {
                if (!host.ended()) {
                    callerStarted();
                }
            }

            @Override
            public void stopped(long speechEndedAtNanos) {
                if (!host.ended()) {
                    callerStopped(speechEndedAtNanos);
                }
            }
        });
    }

    // ---- the caller ------------------------------------------------------------------------------------------

    @Override
    public void audio(byte[] audio) {
        transcriber.send(audio);
        short[] pcm = format.toPcm(audio);
        vad.audio(pcm, System.nanoTime());
        if (voiceWatched && callerSpeaking && !voiceLasted) {
            voicedNanos += pcm.length * 1_000_000_000L / format.sampleRate();
            if (voicedNanos >= (long) (host.plan().turnTaking().voiceSeconds() * 1e9)) {
                voiceLasted = true;
                heard(callerWords());
            }
        }
    }

    @Override
    public boolean callerSpeaking() {
        return callerSpeaking;
    }

    @Override
    public boolean callerIdle() {
        return !callerSpeaking && userText.isEmpty();
    }

    @Override
    public void forgetCaller() {
        dropPreempted();
        cancelFinalizeTimer();
        cancelEndpointTimer();
        userText.setLength(0);
        interimText = "";
    }

    private void callerStarted() {
        host.callerSpeech(true);
        if (host.machine()) {
            return;
        }
        callerSpeaking = true;
        cancelFinalizeTimer();
        cancelEndpointTimer();
        transcriberEndedTurn = false;
        voiceWatched = false;
        if (userText.isEmpty()) {
            userTurnStartedMillis = System.currentTimeMillis();
        }
        host.callerActive();
        Turn current = host.turn();
        if (current == null || !host.running()) {
            return;
        }
        if (current.audible()) {
            TurnTaking rules = host.plan().turnTaking();
            if (rules.interruptWords() == null) {
                if (rules.voiceSeconds() <= 0 && rules.acknowledgements().isEmpty()) {
                    interrupt("caller spoke");
                } else {
                    // The voice interrupts once it has lasted voiceSeconds (and, with acknowledgement phrases, once
                    // words show it is not only one of them): counted in audio(), decided in heard().
                    voiceWatched = true;
                    voiceLasted = rules.voiceSeconds() <= 0;
                    voicedNanos = 0;
                    interimText = "";
                }
            }
        } else if (current == preempted) {
            dropPreempted(); // the caller goes on: the guess was early; the words so far stay this turn's
        } else if (current.userText != null && !current.toolsUsed) {
            withdraw(current);
        }
    }

    private void callerStopped(long speechEndedAtNanos) {
        host.callerSpeech(false);
        if (host.machine()) {
            return;
        }
        callerSpeaking = false;
        speechEndedAt = speechEndedAtNanos;
        if (!voiceLasted) {
            voiceWatched = false; // too short to interrupt; a voice that lasted still waits for its words
        }
        transcriber.finalizeTurn();
        // Should the transcriber not answer the finalise (no final, no end of speech), the words it gave end the turn.
        cancelFinalizeTimer();
        finalizeTimer = vertx.setTimer(FINALIZE_WAIT_MILLIS, id -> {
            finalizeTimer = -1;
            if (!callerSpeaking && !userText.isEmpty()) {
                transcriberEndedTurn = true;
                maybeEndTurn();
            }
        });
        maybeEndTurn();
        preempt(speechEndedAtNanos);
    }

    /**
     * Preemptive replies: the caller stopped and the turn has not ended yet (the final words are awaited); with words
     * heard and no turn of the assistant's under way, the model is asked now on them, its reply held unheard.
     */
    private void preempt(long speechEndedAtNanos) {
        String words = callerWords().strip();
        Turn current = host.turn();
        if (!preemptive || preempted != null || words.isEmpty() || !host.running() || host.machine()
                || current != null) {
            return;
        }
        host.remember(new ChatMessage("user", words));
        preempted = reply(words, speechEndedAtNanos, true);
        preemptedWords = words;
        metrics.preemptiveReply("asked");
    }

    /** The preemptive reply is not the turn's: it is dropped unheard (its request counted in the usage). */
    private void dropPreempted() {
        Turn turn = preempted;
        preempted = null;
        preemptedWords = null;
        if (turn != null && host.turn() == turn) {
            host.withdraw();
            metrics.preemptiveReply("dropped");
        }
    }

    /**
     * The caller's turn ended with {@code text}: a preemptive reply to the same words (case and punctuation aside) is
     * released as the turn's answer (true); one to other words is dropped unheard and false is returned.
     */
    private boolean confirmPreempted(String text, long endedAt) {
        Turn turn = preempted;
        if (turn == null) {
            return false;
        }
        if (host.turn() != turn || making == null || making.turn != turn
                || !TurnTaking.words(preemptedWords).equals(TurnTaking.words(text))) {
            dropPreempted();
            return false;
        }
        preempted = null;
        preemptedWords = null;
        Reply reply = making;
        reply.held = false;
        metrics.preemptiveReply("confirmed");
        turn.userMessage = host.message("user", text, userTurnStartedMillis, System.currentTimeMillis());
        live.awaitingReply();
        if (!reply.heldOutput.isEmpty()) {
            live.modelOutput(reply.heldOutput.toString());
        }
        turn.release(holdAfter(endedAt));
        if (reply.heldTools != null) {
            List<ToolCall> calls = reply.heldTools;
            reply.heldTools = null;
            turn.toolsUsed = true;
            tools.called(turn, calls, turn::working);
        }
        return true;
    }

    private void cancelEndpointTimer() {
        endpointWaited = false;
        if (endpointTimer >= 0) {
            vertx.cancelTimer(endpointTimer);
            endpointTimer = -1;
        }
    }

    private void cancelFinalizeTimer() {
        if (finalizeTimer >= 0) {
            vertx.cancelTimer(finalizeTimer);
            finalizeTimer = -1;
        }
    }

    private final class TranscriberEvents implements SpeechToText.Listener {
        @Override
        public void speechStarted() {
            onContext(host::callerActive);
        }

        @Override
        public void interim(String text) {
            onContext(() -> {
                live.transcript("user", "partial", text);
                host.callerActive();
                interimText = text;
                heard(callerWords());
            });
        }

        @Override
        public void segment(String text, boolean endOfTurn) {
            onContext(() -> {
                live.transcript("user", "final", text.trim());
                if (!text.isBlank()) {
                    if (userText.isEmpty()) {
                        userTurnStartedMillis = System.currentTimeMillis();
                    }
                    if (!userText.isEmpty()) {
                        userText.append(' ');
                    }
                    userText.append(text.trim());
                    interimText = "";
                    cancelEndpointTimer(); // new words: the transcription rules look at them afresh
                    heard(callerWords());
                }
                if (endOfTurn) {
                    transcriberEndedTurn = true;
                }
                maybeEndTurn();
            });
        }

        @Override
        public void failed(ProviderError error) {
            onContext(() -> {
                metrics.providerError(error.provider(), ProviderDirectory.TRANSCRIBER, error.kind());
                host.providerFailed(ProviderDirectory.TRANSCRIBER, error);
            });
        }
    }

    /** The caller's words so far: the final ones of this turn and the latest interim after them. */
    private String callerWords() {
        return interimText.isBlank() ? userText.toString() : userText + " " + interimText;
    }

    /**
     * The caller's words (or voice) over an audible turn: an interruption phrase interrupts; words that are only
     * acknowledgement phrases never do; else {@code numWords} words do, or, without it, a voice that has lasted
     * {@code voiceSeconds} (with acknowledgement phrases, once some words show what it is).
     */
    private void heard(String words) {
        Turn current = host.turn();
        if (host.machine() || current == null || !current.audible() || !host.running()) {
            return;
        }
        TurnTaking rules = host.plan().turnTaking();
        if (rules.interrupts(words)) {
            interrupt("interruption phrase");
            return;
        }
        if (rules.acknowledgementOnly(words)) {
            return;
        }
        Integer needed = rules.interruptWords();
        int count = Turn.words(words);
        if (needed != null ? count >= needed
                : voiceWatched && voiceLasted && (rules.acknowledgements().isEmpty() || count > 0)) {
            interrupt(needed != null ? count + " words" : "caller spoke");
        }
    }

    private void interrupt(String why) {
        voiceWatched = false;
        voiceLasted = false;
        interruptedAt = System.nanoTime();
        host.interrupt(why);
    }

    @Override
    public void turnPlayed() {
        maybeEndTurn();
    }

    private void maybeEndTurn() {
        if (host.machine()) {
            userText.setLength(0);
            interimText = "";
            return;
        }
        if (!host.running() || callerSpeaking || !transcriberEndedTurn || userText.isEmpty()) {
            return;
        }
        Turn current = host.turn();
        if (current != null && current.audible()) {
            // Words under the interruption threshold while the assistant speaks ("okay", "mhm") are not a turn.
            userText.setLength(0);
            interimText = "";
            transcriberEndedTurn = false;
            return;
        }
        if (current != null && current != preempted && current.toolsUsed) {
            return; // A turn whose tools are running is not withdrawn: the words wait for its end (turnPlayed()).
        }
        TurnTaking.Endpointing rules = host.plan().turnTaking().endpointing();
        if (rules != null && !endpointWaited) {
            // The transcription rules: the turn ends this long after its final words, unless the caller goes on.
            long waitMillis = Math.round(rules.secondsFor(userText.toString()) * 1000);
            if (waitMillis > 0) {
                if (endpointTimer < 0) {
                    endpointTimer = vertx.setTimer(waitMillis, id -> {
                        endpointTimer = -1;
                        endpointWaited = true;
                        maybeEndTurn();
                    });
                }
                return;
            }
        }
        cancelEndpointTimer();
        String text = userText.toString();
        userText.setLength(0);
        interimText = "";
        transcriberEndedTurn = false;
        long decidedAt = System.nanoTime();
        long endedAt = speechEndedAt == 0 ? decidedAt : Math.min(speechEndedAt, decidedAt);
        metrics.stage(Stage.END_OF_TURN, decidedAt - endedAt);
        if (confirmPreempted(text, endedAt)) {
            return;
        }
        long now = System.currentTimeMillis();
        host.remember(new ChatMessage("user", text));
        reply(text, endedAt).userMessage = host.message("user", text, userTurnStartedMillis, now);
        live.awaitingReply();
    }

    /**
     * A keypad entry is a caller turn as final words are, without the transcriber: in the live transcript now, in the
     * history for the model, and in the transcript once its reply is heard. Words the caller said before it and that
     * have not made a turn yet go with it, first.
     */
    @Override
    public void keypadEntry(String text) {
        live.transcript("user", "final", text);
        cancelFinalizeTimer();
        cancelEndpointTimer();
        long now = System.currentTimeMillis();
        String said = userText.toString().trim();
        String turnText = said.isEmpty() ? text : said + " " + text;
        long startedMillis = said.isEmpty() ? now : userTurnStartedMillis;
        userText.setLength(0);
        interimText = "";
        transcriberEndedTurn = false;
        host.remember(new ChatMessage("user", turnText));
        reply(turnText, System.nanoTime()).userMessage = host.message("user", turnText, startedMillis, now);
        live.awaitingReply();
    }

    /** The caller went on speaking before the reply was heard: it is dropped, the words join the next turn. */
    private void withdraw(Turn current) {
        host.withdraw();
        String earlier = current.userText;
        if (current.userMessage != null && current.userMessage.get("time") instanceof Long started) {
            userTurnStartedMillis = started;
        }
        if (!userText.isEmpty()) {
            userText.insert(0, earlier + " ");
        } else {
            userText.append(earlier);
        }
    }

    // ---- the reply -------------------------------------------------------------------------------------------

    @Override
    public void replyAgain() {
        reply(null, System.nanoTime(), false);
    }

    /** Nothing of the reply to a turn that ended at {@code endedAt} is heard before this (nanoTime). */
    private long holdAfter(long endedAt) {
        CallPlan plan = host.plan();
        long holdUntil = endedAt + (long) (plan.turnTaking().waitSeconds() * 1000) * MS;
        if (interruptedAt != 0) {
            // backoffSeconds: after an interruption, nothing of the next reply is heard before this.
            holdUntil = Math.max(holdUntil, interruptedAt + (long) (plan.turnTaking().backoffSeconds() * 1000) * MS);
        }
        return holdUntil;
    }

    private Turn reply(String userTurn, long endedAt) {
        return reply(userTurn, endedAt, false);
    }

    /** Begins the reply to {@code userTurn}; a {@code held} one (preemptive) is not heard until it is released. */
    private Turn reply(String userTurn, long endedAt, boolean held) {
        CallPlan plan = host.plan();
        Turn turn = host.begin(userTurn, endedAt, held ? Turn.HELD : holdAfter(endedAt));
        Reply reply = new Reply(turn, new TextChunker(plan.voice().inputMinCharacters(),
                plan.voice().inputPunctuationBoundaries()));
        reply.held = held;
        making = reply;
        if (host.knowledge() != null) {
            reply.passages = host.knowledge().lookUp(userTurn);
        }
        long delayMillis = (endedAt + (long) (plan.llmRequestDelaySeconds() * 1000) * MS - System.nanoTime()) / MS;
        if (delayMillis > 0) {
            vertx.setTimer(delayMillis, id -> turn.guarded(() -> askModel(reply)));
        } else {
            askModel(reply);
        }
        return turn;
    }

    private void askModel(Reply reply) {
        Turn turn = reply.turn;
        if (reply.passages != null && !reply.passages.isComplete()) {
            // The search has its own deadline: the model is asked once it answered, or gave up.
            reply.passages.onComplete(searched -> turn.guarded(() -> askModel(reply)));
            return;
        }
        if (!turn.toolsUsed) {
            // After a tool round the turn's hand-off to the model stays the first request's (the runtime's own share).
            turn.modelRequestedAt = System.nanoTime();
        }
        ModelSettings settings = host.plan().model();
        ChatRequest request = new ChatRequest(settings.model(), Knowledge.context(host.history(), reply.passages),
                tools.offered(turn), settings.temperature(), settings.maxTokens());
        turn.working(model.stream(request, counted(settings, turn.guard(new Answer(reply)))));
    }

    /** The model's answer in a reply (called only while its turn is current, on the call's context). */
    private final class Answer implements LanguageModel.Listener {
        private final Reply reply;
        private final Turn turn;
        private List<ToolCall> toolCalls;

        Answer(Reply reply) {
            this.reply = reply;
            this.turn = reply.turn;
        }

        @Override
        public void toolCalls(List<ToolCall> calls) {
            toolCalls = calls;
            // Calling tools is the model's first answer as much as text is.
            firstToken();
        }

        @Override
        public void text(String delta) {
            firstToken();
            turn.text.append(delta);
            if (reply.held) {
                reply.heldOutput.append(delta); // told once the reply is confirmed
            } else {
                live.modelOutput(delta);
            }
            for (String piece : reply.chunker.add(delta)) {
                speak(turn, piece);
            }
        }

        @Override
        public void done(long prompt, long completion) {
            String rest = reply.chunker.flush();
            if (rest != null) {
                speak(turn, rest);
            }
            if (toolCalls != null) {
                List<ToolCall> calls = toolCalls;
                toolCalls = null;
                if (reply.held) {
                    reply.heldTools = calls; // a tool acts on the world: run only once the reply is confirmed
                    return;
                }
                turn.toolsUsed = true;
                tools.called(turn, calls, turn::working);
                return;
            }
            turn.done();
        }

        @Override
        public void failed(ProviderError error) {
            metrics.providerError(error.provider(), ProviderDirectory.MODEL, error.kind());
            if (!turn.text.isEmpty()) {
                // What was said stays said: the reply ends with it, and the call goes on.
                LOG.warnf("call %s: the model (%s) failed after it answered: %s", host.plan().callId(),
                        error.provider(), error);
                String rest = reply.chunker.flush();
                if (rest != null) {
                    speak(turn, rest);
                }
                turn.done();
                return;
            }
            host.providerFailed(ProviderDirectory.MODEL, error);
        }

        private void firstToken() {
            if (turn.firstTokenAt == 0) {
                turn.firstTokenAt = System.nanoTime();
                metrics.stage(Stage.LLM_FIRST_TOKEN, turn.firstTokenAt - turn.modelRequestedAt);
            }
        }
    }

    /**
     * The answer's tokens go into the call's usage whatever became of its turn, as the tokens of the model asked
     * ({@code settings}, or the fallback that answered); the rest goes on to the turn.
     */
    private LanguageModel.Listener counted(ModelSettings settings, LanguageModel.Listener answer) {
        return new LanguageModel.Listener() {
            @Override
            public void text(String delta) {
                answer.text(delta);
            }

            @Override
            public void toolCalls(List<ToolCall> calls) {
                answer.toolCalls(calls);
            }

            @Override
            public void done(long prompt, long completion) {
                done(ModelUsage.of(prompt, completion));
            }

            @Override
            public void done(ModelUsage usage) {
                onContext(() -> {
                    host.usage().chat(settings.provider(), settings.model(), usage);
                    answer.done(usage.promptTokens(), usage.completionTokens());
                });
            }

            @Override
            public void failed(ProviderError error) {
                answer.failed(error);
            }
        };
    }

    @Override
    public void speak(Turn turn, String text) {
        Turn.Piece piece = turn.piece(text);
        host.usage().characters(voiceSettings.provider(), voiceSettings.voiceId(), text.length());
        long requestedAt = System.nanoTime();
        piece.cancelWith(voice.speak(text, turn.guard(new TextToSpeech.Listener() {
            @Override
            public void audio(byte[] audio) {
                if (piece.firstAudioAwaited()) {
                    metrics.stage(Stage.TTS_FIRST_AUDIO, System.nanoTime() - requestedAt);
                }
                piece.audio(audio);
            }

            @Override
            public void done() {
                piece.spoken();
            }

            @Override
            public void failed(ProviderError error) {
                metrics.providerError(error.provider(), ProviderDirectory.VOICE, error.kind());
                host.providerFailed(ProviderDirectory.VOICE, error);
            }
        })));
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
                askModel(making); // the reply whose model called the tools: its turn is current
                return;
            }
            turn.endReason = endReason;
            turn.done();
        }

        @Override
        public void remember(ChatMessage message) {
            host.remember(message);
        }
    }

    /**
     * The turn's first frame went out: voice-to-voice (the caller stopped → this frame) and the runtime's own share
     * of it, the time no provider and no configured wait accounts for: from the turn's decision (or the end of
     * {@code llmRequestDelaySeconds}) to the model request, and from the voice's first audio (or the end of
     * {@code waitSeconds}, {@code responseDelaySeconds}, {@code backoffSeconds}) to this frame.
     */
    @Override
    public void firstFrameSent(Turn turn, long sentAt) {
        if (turn.userText == null || turn.speechEndedAt == 0) {
            return;
        }
        metrics.stage(Stage.VOICE_TO_VOICE, sentAt - turn.speechEndedAt);
        long modelHandOff = turn.modelRequestedAt - Math.max(turn.decidedAt,
                turn.speechEndedAt + (long) (host.plan().llmRequestDelaySeconds() * 1000) * MS);
        long audioHandOff = sentAt - Math.max(turn.firstAudioAt, turn.holdUntil);
        metrics.stage(Stage.OWN, Math.max(0, modelHandOff) + Math.max(0, audioHandOff));
        LOG.debugf("call %s turn %d: first audio %d ms after the caller stopped", host.plan().callId(), turn.id,
                (sentAt - turn.speechEndedAt) / MS);
        turn.speechEndedAt = 0;
    }

    // ---- a hand-off, the end ---------------------------------------------------------------------------------

    @Override
    public void switchTo(CallPlan next, ProviderSet providers) {
        SpeechToText previous = transcriber;
        addTranscription(previous);
        transcriberSettings = next.transcriber();
        voiceSettings = next.voice();
        TextToSpeech previousVoice = voice;
        model = providers.model();
        voice = providers.voice();
        // Opened before the old one is closed; it holds the audio that comes before its stream is open.
        transcriber = providers.transcriber().open(new TranscriberEvents());
        previous.close();
        // The hand-off's message has played by now: the old voice's socket (if it has one) is closed.
        previousVoice.close();
        tools = new Tools(next, runners, new ToolHost(), context, format);
        logNotRun(next);
    }

    /** The speaking plans' parts this runtime accepts but does not run; the call goes on without them. */
    private static void logNotRun(CallPlan plan) {
        if (!plan.turnTaking().notRun().isEmpty()) {
            LOG.infof("call %s: not run (no such detector here; the transcription rules and the voice detector decide):"
                    + " %s", plan.callId(), String.join(", ", plan.turnTaking().notRun()));
        }
    }

    @Override
    public void close() {
        preempted = null;
        cancelFinalizeTimer();
        cancelEndpointTimer();
        vad.close();
        addTranscription(transcriber);
        transcriber.close();
        voice.close();
    }

    /** The seconds of audio sent to the transcriber in use, into the call's usage. */
    private void addTranscription(SpeechToText used) {
        host.usage().transcription(transcriberSettings.provider(), transcriberSettings.model(), used.secondsSent());
    }

    /** Provider callbacks normally arrive on the call's context already; anything else is moved onto it. */
    private void onContext(Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(ignored -> action.run());
        }
    }
}
