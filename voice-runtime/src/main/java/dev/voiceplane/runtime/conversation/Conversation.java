package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.audio.VoiceActivity;
import dev.voiceplane.runtime.audio.VoiceDetector;
import dev.voiceplane.contracts.call.RuntimeEvent;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.media.MediaChannel;
import dev.voiceplane.runtime.ops.RuntimeMetrics;
import dev.voiceplane.runtime.ops.RuntimeMetrics.Stage;
import dev.voiceplane.runtime.provider.ChatRequest;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.ProviderDirectory;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSet;
import dev.voiceplane.runtime.provider.SpeechToText;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.ToolCall;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * One call's conversation: an actor bound to the call's Vert.x context. Every event of the call (caller audio, the
 * transcriber's words, the model's text, the voice's audio, marks played, timers) is handled here, on that
 * context, one at a time: no locks, no queues between stages.
 *
 * <p>A turn: the caller's speech stops (voice activity) → the transcriber is asked to finalise → its final words end
 * the turn → the model streams a reply (after {@code llmRequestDelaySeconds}) → the reply is cut into pieces for the
 * voice → the voice's audio goes out paced, not before {@code responseDelaySeconds} after the caller stopped. A
 * caller who speaks over the assistant (after {@code numWordsToInterruptAssistant} words, or at once without it)
 * interrupts it: the turn is cancelled ({@link Turn}: late model and voice events are dropped), the far end's audio
 * is cleared, and the transcript keeps what was heard.
 */
public final class Conversation {

    private static final Logger LOG = Logger.getLogger(Conversation.class);
    private static final long MS = 1_000_000L;
    private static final long GOODBYE_LIMIT_MILLIS = 15_000;
    private static final long FINALIZE_WAIT_MILLIS = 1_000;

    /** What the conversation runs with: the plan, the channel, the providers and the runtime's services. */
    public record Parts(CallPlan plan, MediaChannel channel, Context context, SpeechToText.Factory transcriber,
            LanguageModel model, TextToSpeech voice, VoiceDetector.Factory vad, long leadMillis,
            EventSink events, RuntimeMetrics metrics, ToolRunners tools, Transfers.Services transfers) {

        /** Without transfers (no {@code transferCall} is offered). */
        public Parts(CallPlan plan, MediaChannel channel, Context context, SpeechToText.Factory transcriber,
                LanguageModel model, TextToSpeech voice, VoiceDetector.Factory vad, long leadMillis,
                EventSink events, RuntimeMetrics metrics, ToolRunners tools) {
            this(plan, channel, context, transcriber, model, voice, vad, leadMillis, events, metrics, tools, null);
        }

        /** With the built-in tool types only (endCall, dtmf). */
        public Parts(CallPlan plan, MediaChannel channel, Context context, SpeechToText.Factory transcriber,
                LanguageModel model, TextToSpeech voice, VoiceDetector.Factory vad, long leadMillis,
                EventSink events, RuntimeMetrics metrics) {
            this(plan, channel, context, transcriber, model, voice, vad, leadMillis, events, metrics,
                    ToolRunners.builtIn());
        }

        /** With the energy detector at {@code vad}'s settings. */
        public Parts(CallPlan plan, MediaChannel channel, Context context, SpeechToText.Factory transcriber,
                LanguageModel model, TextToSpeech voice, VoiceActivity.Settings vad, long leadMillis,
                EventSink events, RuntimeMetrics metrics) {
            this(plan, channel, context, transcriber, model, voice, VoiceDetector.energy(vad), leadMillis, events,
                    metrics);
        }
    }

    /** Where events go (call-service in production). */
    public interface EventSink {
        Future<Void> report(java.util.function.LongFunction<RuntimeEvent> event);

        /** Reports an event that may be merged into the last one still waiting under the same key (LiveMessages). */
        default boolean reportMerging(String key, java.util.function.LongFunction<RuntimeEvent> event,
                java.util.function.BinaryOperator<RuntimeEvent> merge) {
            report(event);
            return false;
        }
    }

    private enum Phase { RUNNING, SAYING_GOODBYE, ENDED }

    /** The model's reply to a caller turn while it is being made: its turn, and what only the making needs. */
    private static final class Reply {
        final Turn turn;
        final TextChunker chunker;
        /** The knowledge base's passages for this turn (null without a knowledge base). */
        Future<List<String>> passages;

        Reply(Turn turn, TextChunker chunker) {
            this.turn = turn;
            this.chunker = chunker;
        }
    }

    private CallPlan plan;
    private final MediaChannel channel;
    private final Context context;
    private final Vertx vertx;
    private LanguageModel model;
    private TextToSpeech voice;
    private final VoiceDetector vad;
    private final Egress egress;
    private final EventSink events;
    private final RuntimeMetrics metrics;
    private SpeechToText transcriber;
    private Tools tools;
    private final ToolRunners runners;
    private final Transfers transfers;
    private double sttSecondsBefore;
    private final List<ChatMessage> history = new ArrayList<>();
    private final StringBuilder userText = new StringBuilder();
    private final long startedAtNanos = System.nanoTime();
    private final long startedAtMillis = System.currentTimeMillis();
    private final List<Consumer<String>> endListeners = new ArrayList<>();
    private Consumer<byte[]> callerAudioTap = audio -> { };
    private java.util.function.Supplier<Future<dev.voiceplane.runtime.recording.Recordings>> recordings =
            () -> Future.succeededFuture(dev.voiceplane.runtime.recording.Recordings.NONE);
    private final LiveMessages live;
    private final Voicemail voicemail;

    private Phase phase = Phase.RUNNING;
    private int epoch;
    private Turn response;
    private Reply making;
    private boolean transcriberEndedTurn;
    private boolean callerSpeaking;
    private long speechEndedAt;
    private long userTurnStartedMillis;
    private long silenceTimer = -1;
    private long finalizeTimer = -1;
    private long maxDurationTimer = -1;
    private long goodbyeTimer = -1;
    private long promptTokens;
    private long completionTokens;
    private long ttsCharacters;
    private String endedReason;
    private Knowledge knowledge;

    public Conversation(Parts parts) {
        this.plan = parts.plan();
        this.channel = parts.channel();
        this.context = parts.context();
        this.vertx = context.owner();
        this.model = parts.model();
        this.voice = parts.voice();
        this.events = parts.events();
        this.metrics = parts.metrics();
        this.live = new LiveMessages(plan, channel, events, metrics, vertx);
        this.voicemail = new Voicemail(vertx, plan.callId(), channel.format().sampleRate(), this::leaveVoicemail);
        this.egress = new Egress(channel, vertx, this::firstReplyFrame, parts.leadMillis());
        for (ChatMessage message : plan.model().messages()) {
            history.add(message);
        }
        this.transfers = new Transfers(plan, parts.transfers());
        this.runners = parts.transfers() == null ? parts.tools() : parts.tools().with("transferCall", transfers);
        this.tools = new Tools(plan, runners, new ToolHost(), context, channel.format());
        transfers.attach(new TransferHost());
        this.transcriber = parts.transcriber().open(new TranscriberEvents());
        // Last: should anything above fail, no detector is left open.
        this.vad = parts.vad().open(context, channel.format(), new VoiceDetector.Listener() {
            @Override
            public void started() {
                if (phase != Phase.ENDED) {
                    callerStarted();
                }
            }

            @Override
            public void stopped(long speechEndedAtNanos) {
                if (phase != Phase.ENDED) {
                    callerStopped(speechEndedAtNanos);
                }
            }
        });
    }

    /** The call's knowledge base, searched at each caller turn (set before {@link #start}). */
    public void knowledge(Knowledge knowledge) {
        this.knowledge = knowledge;
    }

    /** Called once the call is ended (with the reason), after its {@code ended} event was reported. */
    public void onEnded(Consumer<String> listener) {
        endListeners.add(listener);
    }

    /** The recorder's hooks: the caller's audio as it arrives, and the recordings the {@code ended} event names. */
    public void record(Consumer<byte[]> callerAudio,
            java.util.function.Supplier<Future<dev.voiceplane.runtime.recording.Recordings>> finished) {
        this.callerAudioTap = callerAudio;
        this.recordings = finished;
    }

    // ---- the call's start ------------------------------------------------------------------------------------

    public void start() {
        metrics.callStarted();
        events.report(RuntimeEvent::inProgress);
        maxDurationTimer = vertx.setTimer((long) (plan.maxDurationSeconds() * 1000), id -> {
            maxDurationTimer = -1;
            end("exceeded-max-duration", true);
        });
        if (plan.assistantSpeaksFirst() && plan.firstMessage() != null && !plan.firstMessage().isBlank()) {
            say(plan.firstMessage(), null);
        } else {
            armSilenceTimer();
        }
    }

    // ---- the caller's side -----------------------------------------------------------------------------------

    /** Caller audio in the call's format (any length; carriers send 20 ms frames). */
    public void audio(byte[] audio) {
        if (phase == Phase.ENDED) {
            return;
        }
        transcriber.send(audio);
        callerAudioTap.accept(audio);
        vad.audio(channel.format().toPcm(audio), System.nanoTime());
        if (voicemail.listening()) {
            voicemail.audio(channel.format().toPcm(audio));
        }
    }

    /**
     * The carrier's detection says a machine answered (call-service, when the assistant has a
     * {@code voicemailMessage}): the call waits for the beep and leaves the message (Voicemail).
     */
    public void machineDetected(String answeredBy) {
        if (phase != Phase.RUNNING || plan.voicemailMessage() == null || plan.voicemailMessage().isBlank()) {
            return;
        }
        if (!voicemail.active()) {
            cancelSilenceTimer();
            cancelFinalizeTimer();
            userText.setLength(0);
            if (response != null) {
                cancel();
                egress.clear();
            }
        }
        voicemail.detected(answeredBy, callerSpeaking);
    }

    private void leaveVoicemail() {
        if (phase == Phase.RUNNING) {
            say(plan.voicemailMessage(), "voicemail");
        }
    }

    /** The far end played the audio before this mark (or dropped it on a clear). */
    public void markPlayed(String name) {
        if (response != null) {
            response.markPlayed(name);
        }
    }

    /** The far end hung up (a carrier's {@code stop}, or the socket closed). */
    public void hungUp(String reason) {
        if (phase == Phase.ENDED) {
            return;
        }
        finish(reason, false);
    }

    private void callerStarted() {
        live.speech("user", true);
        if (voicemail.active()) {
            voicemail.speech(true);
            return;
        }
        callerSpeaking = true;
        cancelFinalizeTimer();
        transcriberEndedTurn = false;
        if (userText.isEmpty()) {
            userTurnStartedMillis = System.currentTimeMillis();
        }
        cancelSilenceTimer();
        Turn current = response;
        if (current == null || phase != Phase.RUNNING) {
            return;
        }
        if (current.audible()) {
            if (plan.numWordsToInterruptAssistant() == null) {
                interrupt("caller spoke");
            }
        } else if (current.userText != null && !current.toolsUsed) {
            withdraw();
        }
    }

    private void callerStopped(long speechEndedAtNanos) {
        live.speech("user", false);
        if (voicemail.active()) {
            voicemail.speech(false);
            return;
        }
        callerSpeaking = false;
        speechEndedAt = speechEndedAtNanos;
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
            onContext(Conversation.this::cancelSilenceTimer);
        }

        @Override
        public void interim(String text) {
            onContext(() -> {
                live.transcript("user", "partial", text);
                cancelSilenceTimer();
                interruptAfterWords(words(userText) + words(text));
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
                    interruptAfterWords(words(userText));
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
                providerFailed(ProviderDirectory.TRANSCRIBER, error);
            });
        }
    }

    private void interruptAfterWords(int words) {
        if (voicemail.active()) {
            return;
        }
        Turn current = response;
        Integer needed = plan.numWordsToInterruptAssistant();
        if (current != null && current.audible() && needed != null && words >= needed && phase == Phase.RUNNING) {
            interrupt(words + " words");
        }
    }

    private void maybeEndTurn() {
        if (voicemail.active()) {
            userText.setLength(0);
            return;
        }
        if (phase != Phase.RUNNING || callerSpeaking || !transcriberEndedTurn || userText.isEmpty()) {
            return;
        }
        if (response != null && response.audible()) {
            // Words under the interruption threshold while the assistant speaks ("okay", "mhm") are not a turn.
            userText.setLength(0);
            transcriberEndedTurn = false;
            return;
        }
        if (response != null && response.toolsUsed) {
            return; // A turn whose tools are running is not withdrawn: the words wait for its end (complete()).
        }
        String text = userText.toString();
        userText.setLength(0);
        transcriberEndedTurn = false;
        long decidedAt = System.nanoTime();
        long endedAt = speechEndedAt == 0 ? decidedAt : Math.min(speechEndedAt, decidedAt);
        metrics.stage(Stage.END_OF_TURN, decidedAt - endedAt);
        long now = System.currentTimeMillis();
        history.add(new ChatMessage("user", text));
        reply(text, endedAt).turn.userMessage = message("user", text, userTurnStartedMillis, now);
        live.awaitingReply();
    }

    /**
     * The caller's turn goes into the transcript once the reply to it is heard (or the call ends): until then the
     * caller may go on speaking, and the turn is withdrawn and joined to what follows.
     */
    private void commitUserTurn(Turn reply) {
        if (reply != null && reply.userMessage != null) {
            report(reply.userMessage);
            reply.userMessage = null;
        }
    }

    // ---- the assistant's side --------------------------------------------------------------------------------

    /**
     * Begins a turn, the current one from now: one still current is retired (nothing more of it reaches the caller),
     * and nothing of the new one goes out before {@code holdUntil}.
     */
    private Turn begin(String userTurn, long endedAt, long holdUntil) {
        Turn next = new Turn(++epoch, userTurn, endedAt, holdUntil, egress, channel, context, new Turn.Listener() {
            @Override
            public void audible(Turn turn) {
                live.speech("assistant", true);
                commitUserTurn(turn);
            }

            @Override
            public void played(Turn turn) {
                complete(turn);
            }
        });
        if (response != null) {
            response.retire();
        }
        response = next;
        egress.resetFirstFrame();
        egress.holdUntil(holdUntil);
        return next;
    }

    private Reply reply(String userTurn, long endedAt) {
        Turn turn = begin(userTurn, endedAt, endedAt + (long) (plan.responseDelaySeconds() * 1000) * MS);
        Reply reply = new Reply(turn, new TextChunker(plan.voice().inputMinCharacters(),
                plan.voice().inputPunctuationBoundaries()));
        making = reply;
        if (knowledge != null) {
            reply.passages = knowledge.lookUp(userTurn);
        }
        long delayMillis = (endedAt + (long) (plan.llmRequestDelaySeconds() * 1000) * MS - System.nanoTime()) / MS;
        if (delayMillis > 0) {
            vertx.setTimer(delayMillis, id -> turn.guarded(() -> askModel(reply)));
        } else {
            askModel(reply);
        }
        return reply;
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
        ModelSettings settings = plan.model();
        ChatRequest request = new ChatRequest(settings.model(), Knowledge.context(history, reply.passages),
                tools.offered(turn), settings.temperature(), settings.maxTokens());
        turn.working(model.stream(request, counted(turn.guard(new Answer(reply)))));
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
            live.modelOutput(delta);
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
                LOG.warnf("call %s: the model (%s) failed after it answered: %s", plan.callId(), error.provider(),
                        error);
                String rest = reply.chunker.flush();
                if (rest != null) {
                    speak(turn, rest);
                }
                turn.done();
                return;
            }
            providerFailed(ProviderDirectory.MODEL, error);
        }

        private void firstToken() {
            if (turn.firstTokenAt == 0) {
                turn.firstTokenAt = System.nanoTime();
                metrics.stage(Stage.LLM_FIRST_TOKEN, turn.firstTokenAt - turn.modelRequestedAt);
            }
        }
    }

    /** The answer's tokens go into the call's usage whatever became of its turn; the rest goes on to the turn. */
    private LanguageModel.Listener counted(LanguageModel.Listener answer) {
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
                onContext(() -> {
                    promptTokens += prompt;
                    completionTokens += completion;
                    answer.done(prompt, completion);
                });
            }

            @Override
            public void failed(ProviderError error) {
                answer.failed(error);
            }
        };
    }

    /** Speaks a scripted text (first message, goodbye); the call ends after it when {@code endReason} is set. */
    private void say(String text, String endReason) {
        Turn scripted = begin(null, 0, 0);
        scripted.endReason = endReason;
        scripted.text.append(text);
        speak(scripted, text);
        scripted.done();
    }

    /** What the tools of a reply may do in it (see {@link Tools}). */
    private final class ToolHost implements Tools.Host {
        @Override
        public boolean current(Turn turn) {
            return response == turn && phase == Phase.RUNNING;
        }

        @Override
        public void say(Turn turn, String text) {
            if (!turn.text.isEmpty() && !Character.isWhitespace(turn.text.charAt(turn.text.length() - 1))) {
                turn.text.append(' ');
            }
            turn.text.append(text);
            speak(turn, text);
        }

        @Override
        public void play(Turn turn, byte[] audio) {
            turn.play(audio);
        }

        @Override
        public void proceed(Turn turn, String endReason) {
            if (endReason == null) {
                if (!turn.text.isEmpty() && !Character.isWhitespace(turn.text.charAt(turn.text.length() - 1))) {
                    turn.text.append(' '); // the next answer continues the turn's words
                }
                askModel(making);
                return;
            }
            turn.endReason = endReason;
            turn.done();
        }

        @Override
        public void remember(ChatMessage message) {
            history.add(message);
        }
    }

    /** What a transfer does to the conversation (see {@link Transfers}). */
    private final class TransferHost implements Transfers.Host {
        @Override
        public void switchTo(CallPlan next, ProviderSet providers) {
            List<ChatMessage> said = Transfers.conversationSoFar(history, plan);
            history.clear();
            history.addAll(next.model().messages());
            history.addAll(said);
            SpeechToText previous = transcriber;
            sttSecondsBefore += previous.secondsSent();
            plan = next;
            model = providers.model();
            voice = providers.voice();
            // Opened before the old one is closed; it holds the audio that comes before its stream is open.
            transcriber = providers.transcriber().open(new TranscriberEvents());
            previous.close();
            tools = new Tools(next, runners, new ToolHost(), context, channel.format());
            if (next.assistantSpeaksFirst() && next.firstMessage() != null && !next.firstMessage().isBlank()) {
                say(next.firstMessage(), null);
            } else {
                armSilenceTimer();
            }
        }

        @Override
        public void finish(String reason, boolean closeChannel) {
            Conversation.this.finish(reason, closeChannel);
        }

        @Override
        public void hold(boolean held) {
            if (phase != Phase.ENDED) {
                phase = held ? Phase.SAYING_GOODBYE : Phase.RUNNING;
            }
        }

        @Override
        public void askAgain(String note) {
            history.add(new ChatMessage("system", note));
            reply(null, System.nanoTime());
        }

        @Override
        public void report(String role, String text) {
            long now = System.currentTimeMillis();
            Conversation.this.report(message(role, text, now, now));
        }
    }

    private void speak(Turn turn, String text) {
        Turn.Piece piece = turn.piece(text);
        ttsCharacters += text.length();
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
                providerFailed(ProviderDirectory.VOICE, error);
            }
        })));
    }

    /**
     * The reply's first frame went out: voice-to-voice (the caller stopped → this frame) and the runtime's own share
     * of it, the time no provider and no configured wait accounts for: from the turn's decision (or the end of
     * {@code llmRequestDelaySeconds}) to the model request, and from the voice's first audio (or the end of
     * {@code responseDelaySeconds}) to this frame.
     */
    private void firstReplyFrame(long sentAt) {
        Turn reply = response;
        if (reply == null || reply.userText == null || reply.speechEndedAt == 0) {
            return;
        }
        metrics.stage(Stage.VOICE_TO_VOICE, sentAt - reply.speechEndedAt);
        long modelHandOff = reply.modelRequestedAt - Math.max(reply.decidedAt,
                reply.speechEndedAt + (long) (plan.llmRequestDelaySeconds() * 1000) * MS);
        long audioHandOff = sentAt - Math.max(reply.firstAudioAt, reply.holdUntil);
        metrics.stage(Stage.OWN, Math.max(0, modelHandOff) + Math.max(0, audioHandOff));
        LOG.debugf("call %s turn %d: first audio %d ms after the caller stopped", plan.callId(), reply.id,
                (sentAt - reply.speechEndedAt) / MS);
        reply.speechEndedAt = 0;
    }

    /** The turn has played: the transcript and the history get what it said, and the call goes on (or ends). */
    private void complete(Turn reply) {
        response = null;
        commitUserTurn(reply);
        live.speech("assistant", false);
        String said = reply.text.toString().trim();
        if (!said.isEmpty()) {
            long now = System.currentTimeMillis();
            report(message("bot", said, reply.audible() ? reply.audibleAtMillis() : now, now));
            history.add(new ChatMessage("assistant", said));
        }
        if (reply.endReason != null) {
            finish(reply.endReason, true);
            return;
        }
        if (phase == Phase.RUNNING && saysEndCallPhrase(said)) {
            finish("assistant-said-end-call-phrase", true);
            return;
        }
        armSilenceTimer();
        maybeEndTurn();
    }

    private boolean saysEndCallPhrase(String said) {
        String lower = said.toLowerCase(Locale.ROOT);
        for (String phrase : plan.endCallPhrases()) {
            if (!phrase.isBlank() && lower.contains(phrase.toLowerCase(Locale.ROOT).trim())) {
                return true;
            }
        }
        return false;
    }

    /** The caller spoke over the assistant: stop now, keep in the transcript only what was heard. */
    private void interrupt(String why) {
        Turn current = response;
        if (current == null) {
            return;
        }
        long decidedAt = System.nanoTime();
        cancel();
        egress.clear();
        metrics.stage(Stage.BARGE_IN, System.nanoTime() - decidedAt);
        live.interrupted();
        String heard = keepHeard(current, decidedAt);
        // Word counts, never the words: transcript text stays out of the logs (hipaaEnabled or not).
        LOG.debugf("call %s: interrupted (%s) after %d words", plan.callId(), why, words(heard));
        if (current.endReason != null) {
            finish(current.endReason, true);
        }
    }

    /** Records in the transcript and the history what of a reply cut short was heard by {@code at}; returns it. */
    private String keepHeard(Turn current, long at) {
        String heard = current.heard(at);
        if (!heard.isEmpty()) {
            long now = System.currentTimeMillis();
            report(message("bot", heard, current.audibleAtMillis() > 0 ? current.audibleAtMillis() : now, now));
            history.add(new ChatMessage("assistant", heard));
        }
        return heard;
    }

    /**
     * The call ends while the assistant speaks (a goodbye, a hang-up, a timeout): the reply in flight stops and the
     * transcript keeps what of it was heard. Returns whether a reply was in flight.
     */
    private boolean cutShort() {
        Turn cut = response;
        if (cut == null) {
            return false;
        }
        cancel();
        if (cut.audible()) {
            keepHeard(cut, System.nanoTime());
        }
        return true;
    }

    /** The caller went on speaking before the reply was heard: drop it, the words join the next turn. */
    private void withdraw() {
        Turn current = response;
        cancel();
        egress.stop();
        if (!history.isEmpty() && "user".equals(history.get(history.size() - 1).role())) {
            history.remove(history.size() - 1);
        }
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

    /** Cancels the current turn: everything it has in flight stops, and nothing late of it reaches the caller. */
    private void cancel() {
        Turn current = response;
        response = null;
        epoch++;
        current.cancel();
    }

    // ---- timers and the end ----------------------------------------------------------------------------------

    private void armSilenceTimer() {
        cancelSilenceTimer();
        if (phase != Phase.RUNNING) {
            return;
        }
        silenceTimer = vertx.setTimer((long) (plan.silenceTimeoutSeconds() * 1000), id -> {
            silenceTimer = -1;
            if (response == null && !callerSpeaking && userText.isEmpty()) {
                end("silence-timed-out", true);
            }
        });
    }

    private void cancelSilenceTimer() {
        if (silenceTimer >= 0) {
            vertx.cancelTimer(silenceTimer);
            silenceTimer = -1;
        }
    }

    /** The runtime ends the call; with a goodbye, {@code endCallMessage} is spoken first. */
    private void end(String reason, boolean goodbye) {
        if (phase != Phase.RUNNING) {
            return;
        }
        if (goodbye && plan.endCallMessage() != null && !plan.endCallMessage().isBlank()) {
            phase = Phase.SAYING_GOODBYE;
            commitUserTurn(response);
            if (cutShort()) {
                egress.clear();
            }
            say(plan.endCallMessage(), reason);
            goodbyeTimer = vertx.setTimer(GOODBYE_LIMIT_MILLIS, id -> finish(reason, true));
            return;
        }
        finish(reason, true);
    }

    private void providerFailed(String stage, ProviderError error) {
        if (phase == Phase.ENDED) {
            return;
        }
        LOG.errorf("call %s: the %s (provider %s) failed, the call ends: %s %s (%s)", plan.callId(), stage,
                error.provider(), error.provider(), error.detail(), error.kind().label());
        commitUserTurn(response);
        long now = System.currentTimeMillis();
        report(message("system", "The call ended: the " + stage + " (" + error.provider() + ") failed.", now, now));
        finish("assistant-error", true);
    }

    /**
     * Ends the call: everything in flight is cancelled, {@code ended} with the reason and the usage is reported, and
     * only then is the stream closed (so the carrier's own end cannot overtake the runtime's reason).
     */
    private void finish(String reason, boolean closeChannel) {
        if (phase == Phase.ENDED || transfers.intercepts(reason, closeChannel)) {
            return;
        }
        phase = Phase.ENDED;
        endedReason = reason;
        commitUserTurn(response);
        live.close();
        voicemail.close();
        for (long timer : new long[] {silenceTimer, maxDurationTimer, goodbyeTimer, finalizeTimer}) {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
        }
        cutShort();
        egress.stop();
        vad.close();
        double sttSeconds = sttSecondsBefore + transcriber.secondsSent();
        transcriber.close();
        RuntimeEvent.Usage usage = new RuntimeEvent.Usage(Math.round(sttSeconds * 1000) / 1000.0, promptTokens,
                completionTokens, ttsCharacters);
        LOG.infof("call %s ended: %s (stt %.1f s, tokens %d+%d, tts %d characters)", plan.callId(), reason,
                sttSeconds, promptTokens, completionTokens, ttsCharacters);
        Map<String, Object> ended = new LinkedHashMap<>();
        ended.put("type", "ended");
        ended.put("endedReason", reason);
        channel.sendMessage(ended);
        recordings.get().otherwise(dev.voiceplane.runtime.recording.Recordings.NONE).compose(recorded -> events.report(
                n -> RuntimeEvent.ended(n, reason, usage, recorded.recordingUrl(), recorded.stereoRecordingUrl())))
                .onComplete(sent -> {
            metrics.callEnded(reason);
            if (closeChannel) {
                channel.close(reason);
            }
            endListeners.forEach(listener -> listener.accept(reason));
        });
    }

    public String endedReason() {
        return endedReason;
    }

    public boolean ended() {
        return phase == Phase.ENDED;
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private void report(Map<String, Object> message) {
        events.report(n -> RuntimeEvent.message(n, message));
        live.committed(message);
        if (plan.clientMessages().contains("transcript")) {
            Map<String, Object> transcript = new LinkedHashMap<>();
            transcript.put("type", "transcript");
            transcript.put("role", "bot".equals(message.get("role")) ? "assistant" : message.get("role"));
            transcript.put("transcriptType", "final");
            transcript.put("transcript", message.get("message"));
            channel.sendMessage(transcript);
        }
    }

    private Map<String, Object> message(String role, String text, long startMillis, long endMillis) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", role);
        message.put("message", text);
        message.put("time", startMillis);
        message.put("endTime", Math.max(startMillis, endMillis));
        message.put("secondsFromStart", Math.max(0, startMillis - startedAtMillis) / 1000.0);
        return message;
    }

    private static int words(CharSequence text) {
        String trimmed = text.toString().trim();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }

    /** Provider callbacks normally arrive on the call's context already; anything else is moved onto it. */
    private void onContext(Runnable action) {
        if (io.vertx.core.Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(ignored -> action.run());
        }
    }

    long startedAtNanos() {
        return startedAtNanos;
    }
}
