package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.audio.VoiceActivity;
import dev.voiceplane.runtime.audio.VoiceDetector;
import dev.voiceplane.contracts.call.RuntimeEvent;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.media.MediaChannel;
import dev.voiceplane.runtime.ops.RuntimeMetrics;
import dev.voiceplane.runtime.ops.RuntimeMetrics.Stage;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSet;
import dev.voiceplane.runtime.provider.RealtimeModel;
import dev.voiceplane.runtime.provider.SpeechToText;
import dev.voiceplane.runtime.provider.TextToSpeech;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * One call: an actor bound to the call's Vert.x context. Every event of the call (caller audio, the providers'
 * answers, marks played, timers) is handled on that context, one at a time: no locks, no queues between stages.
 *
 * <p>The call has three parts. This class is the call itself: its phase, its timers (silence, maximum duration,
 * goodbye), the history the model is sent, the transcript it reports, the live messages, voicemail, transfers and
 * the end. Each reply the caller hears is a {@link Turn}: its pieces played in order through the call's
 * {@link Egress}, what of it was heard, and its cancellation in one place. The replies are made by the call's
 * {@link TurnEngine} ({@link CascadeEngine}: voice activity, the transcriber, the model, the voice), which decides
 * when the caller's turn ends and when the caller speaks over the assistant; the call then interrupts the turn,
 * clears the far end's audio, and the transcript keeps what was heard.
 */
public final class Conversation {

    private static final Logger LOG = Logger.getLogger(Conversation.class);
    private static final long GOODBYE_LIMIT_MILLIS = 15_000;

    /** What the conversation runs with: the plan, the channel, the providers and the runtime's services. */
    public record Parts(CallPlan plan, MediaChannel channel, Context context, SpeechToText.Factory transcriber,
            LanguageModel model, TextToSpeech voice, VoiceDetector.Factory vad, long leadMillis,
            EventSink events, RuntimeMetrics metrics, ToolRunners tools, Transfers.Services transfers,
            RealtimeModel realtime, boolean preemptive) {

        /** Without preemptive replies (docs/voice-runtime.md, "Preemptive replies"). */
        public Parts(CallPlan plan, MediaChannel channel, Context context, SpeechToText.Factory transcriber,
                LanguageModel model, TextToSpeech voice, VoiceDetector.Factory vad, long leadMillis,
                EventSink events, RuntimeMetrics metrics, ToolRunners tools, Transfers.Services transfers,
                RealtimeModel realtime) {
            this(plan, channel, context, transcriber, model, voice, vad, leadMillis, events, metrics, tools, transfers,
                    realtime, false);
        }

        /** With preemptive replies on or off. */
        public Parts preemptive(boolean on) {
            return new Parts(plan, channel, context, transcriber, model, voice, vad, leadMillis, events, metrics,
                    tools, transfers, realtime, on);
        }

        /** A cascaded call (a transcriber, a model and a voice). */
        public Parts(CallPlan plan, MediaChannel channel, Context context, SpeechToText.Factory transcriber,
                LanguageModel model, TextToSpeech voice, VoiceDetector.Factory vad, long leadMillis,
                EventSink events, RuntimeMetrics metrics, ToolRunners tools, Transfers.Services transfers) {
            this(plan, channel, context, transcriber, model, voice, vad, leadMillis, events, metrics, tools, transfers,
                    null);
        }

        /** With {@code providers} (a squad member's) in place of these, for {@code next}. */
        Parts with(CallPlan next, ProviderSet providers) {
            return new Parts(next, channel, context, providers.transcriber(), providers.model(), providers.voice(), vad,
                    leadMillis, events, metrics, tools, transfers, providers.realtime(), preemptive);
        }

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

    private CallPlan plan;
    private final MediaChannel channel;
    private final Context context;
    private final Vertx vertx;
    private final Egress egress;
    private final EventSink events;
    private final RuntimeMetrics metrics;
    private final Transfers transfers;
    private final List<ChatMessage> history = new ArrayList<>();
    private final long startedAtNanos = System.nanoTime();
    private final long startedAtMillis = System.currentTimeMillis();
    private final List<Consumer<String>> endListeners = new ArrayList<>();
    private Consumer<byte[]> callerAudioTap = audio -> { };
    private java.util.function.Supplier<Future<dev.voiceplane.runtime.recording.Recordings>> recordings =
            () -> Future.succeededFuture(dev.voiceplane.runtime.recording.Recordings.NONE);
    private final LiveMessages live;
    private final Voicemail voicemail;
    private final Turn.Listener turns = new Turns();
    private final Parts parts;
    private final ToolRunners runners;
    private TurnEngine engine;
    /** What the call used, every engine and squad member of it (the {@code ended} event's usage). */
    private final CallUsage usage = new CallUsage();

    private Phase phase = Phase.RUNNING;
    /** The number of the last turn begun (a cancel moves it on too). */
    private int epoch;
    /** The turn being made or played (null: none); always a current one. */
    private Turn turn;
    private long silenceTimer = -1;
    private long maxDurationTimer = -1;
    private long goodbyeTimer = -1;
    private String endedReason;
    private Knowledge knowledge;
    /** The caller's keys, gathered into entries ({@code keypadInputPlan}). */
    private final Keypad keypad;
    /** Keypad entries waiting for the assistant's turn to end (a key is input, never a barge-in). */
    private final java.util.ArrayDeque<String> keypadEntries = new java.util.ArrayDeque<>();

    public Conversation(Parts parts) {
        this.plan = parts.plan();
        this.channel = parts.channel();
        this.context = parts.context();
        this.vertx = context.owner();
        this.events = parts.events();
        this.metrics = parts.metrics();
        this.live = new LiveMessages(plan, channel, events, metrics, vertx);
        this.voicemail = new Voicemail(vertx, plan.callId(), channel.format().sampleRate(), this::leaveVoicemail);
        this.egress = new Egress(channel, vertx, this::firstFrameSent, parts.leadMillis());
        this.keypad = new Keypad(vertx, this::keypadEntered);
        for (ChatMessage message : plan.model().messages()) {
            history.add(message);
        }
        this.transfers = new Transfers(plan, parts.transfers());
        transfers.attach(new TransferHost());
        this.parts = parts;
        this.runners = parts.transfers() == null ? parts.tools() : parts.tools().with("transferCall", transfers);
        // Last: it opens the providers (the transcriber and the voice detector, or the realtime session).
        this.engine = engine(parts);
    }

    /** A realtime model's engine when the parts have one, else the cascade's. */
    private TurnEngine engine(Parts with) {
        return with.realtime() != null ? new RealtimeEngine(new EngineHost(), with, runners, live)
                : new CascadeEngine(new EngineHost(), with, runners, live);
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

    // ---- the far end -----------------------------------------------------------------------------------------

    /** Caller audio in the call's format (any length; carriers send 20 ms frames). */
    public void audio(byte[] audio) {
        if (phase == Phase.ENDED) {
            return;
        }
        callerAudioTap.accept(audio);
        engine.audio(audio);
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
            engine.forgetCaller();
            if (turn != null) {
                cancel();
                egress.clear();
            }
        }
        voicemail.detected(answeredBy, engine.callerSpeaking());
    }

    private void leaveVoicemail() {
        if (phase == Phase.RUNNING) {
            say(plan.voicemailMessage(), "voicemail");
        }
    }

    /**
     * The caller pressed {@code key} on their keypad (a carrier's DTMF event, a web client's {@code dtmf} message).
     * With the assistant's {@code keypadInputPlan} enabled the key is taken (true) and gathered into an entry
     * ({@link Keypad}) that becomes a caller turn; otherwise, or for what is no key, or once the call has ended, it is
     * not (false), and the caller of this method drops it.
     */
    public boolean keypad(String key) {
        Keypad.Plan rules = plan.keypad();
        if (phase != Phase.RUNNING || !rules.enabled() || !Keypad.isKey(key) || voicemail.active()) {
            return false;
        }
        if (turn == null) {
            armSilenceTimer(); // the caller is there: the silence timeout counts from this key
        }
        keypad.press(key, rules);
        return true;
    }

    /**
     * A keypad entry is complete: it becomes the caller's next turn now, or, while the assistant's turn is being made
     * or played, once that turn has played (the key is input, not a barge-in: the assistant is not interrupted).
     */
    private void keypadEntered(String entry) {
        keypadEntries.add(entry);
        nextKeypadEntry();
    }

    private void nextKeypadEntry() {
        if (phase != Phase.RUNNING || turn != null || keypadEntries.isEmpty()) {
            return;
        }
        cancelSilenceTimer();
        engine.keypadEntry(keypadEntries.poll());
    }

    /** The far end played the audio before this mark (or dropped it on a clear). */
    public void markPlayed(String name) {
        if (turn != null) {
            turn.markPlayed(name);
        }
    }

    /** The far end hung up (a carrier's {@code stop}, or the socket closed). */
    public void hungUp(String reason) {
        if (phase == Phase.ENDED) {
            return;
        }
        finish(reason, false);
    }

    // ---- the turns -------------------------------------------------------------------------------------------

    /**
     * Begins a turn, the call's from now: one still current is retired (nothing more of it reaches the caller), and
     * nothing of the new one goes out before {@code holdUntil}.
     */
    private Turn begin(String userText, long speechEndedAt, long holdUntil) {
        Turn next = new Turn(++epoch, userText, speechEndedAt, holdUntil, egress, channel, context, turns);
        if (turn != null) {
            turn.retire();
        }
        turn = next;
        egress.resetFirstFrame();
        egress.holdUntil(holdUntil);
        return next;
    }

    /** Speaks a scripted text (first message, goodbye, voicemail); an {@code endReason} ends the call after it. */
    private void say(String text, String endReason) {
        Turn scripted = begin(null, 0, 0);
        scripted.endReason = endReason;
        scripted.text.append(text);
        engine.speak(scripted, text);
        scripted.done();
    }

    private void firstFrameSent(long sentAt) {
        if (turn != null) {
            engine.firstFrameSent(turn, sentAt);
        }
    }

    /** What a turn tells the call. */
    private final class Turns implements Turn.Listener {
        @Override
        public void audible(Turn audible) {
            live.speech("assistant", true);
            commitUserTurn(audible);
        }

        /** The turn has played: the transcript and the history get what it said, and the call goes on (or ends). */
        @Override
        public void played(Turn played) {
            turn = null;
            commitUserTurn(played);
            live.speech("assistant", false);
            String said = played.text.toString().trim();
            if (!said.isEmpty()) {
                long now = System.currentTimeMillis();
                report(message("bot", said, played.audible() ? played.audibleAtMillis() : now, now));
                history.add(new ChatMessage("assistant", said));
            }
            if (played.endReason != null) {
                finish(played.endReason, true);
                return;
            }
            if (phase == Phase.RUNNING && saysEndCallPhrase(said)) {
                finish("assistant-said-end-call-phrase", true);
                return;
            }
            armSilenceTimer();
            engine.turnPlayed();
            nextKeypadEntry();
        }
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

    /** The caller spoke over the assistant: stop now, keep in the transcript only what was heard. */
    private void interrupt(String why) {
        Turn current = turn;
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
        LOG.debugf("call %s: interrupted (%s) after %d words", plan.callId(), why, Turn.words(heard));
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
        Turn cut = turn;
        if (cut == null) {
            return false;
        }
        cancel();
        if (cut.audible()) {
            keepHeard(cut, System.nanoTime());
        }
        return true;
    }

    /** The caller went on speaking before the reply was heard: it is dropped, and so is its caller message. */
    private void withdraw() {
        cancel();
        egress.stop();
        if (!history.isEmpty() && "user".equals(history.get(history.size() - 1).role())) {
            history.remove(history.size() - 1);
        }
    }

    /** Cancels the call's turn: everything it has in flight stops, and nothing late of it reaches the caller. */
    private void cancel() {
        Turn cancelled = turn;
        turn = null;
        epoch++;
        cancelled.cancel();
    }

    /** What the call lends its engine (see {@link TurnEngine.Host}). */
    private final class EngineHost implements TurnEngine.Host {
        @Override
        public CallPlan plan() {
            return plan;
        }

        @Override
        public CallUsage usage() {
            return usage;
        }

        @Override
        public boolean running() {
            return phase == Phase.RUNNING;
        }

        @Override
        public boolean ended() {
            return phase == Phase.ENDED;
        }

        @Override
        public boolean machine() {
            return voicemail.active();
        }

        @Override
        public void callerSpeech(boolean started) {
            live.speech("user", started);
            if (voicemail.active()) {
                voicemail.speech(started);
            }
        }

        @Override
        public void callerActive() {
            cancelSilenceTimer();
        }

        @Override
        public Turn turn() {
            return turn;
        }

        @Override
        public Turn begin(String userText, long speechEndedAt, long holdUntil) {
            return Conversation.this.begin(userText, speechEndedAt, holdUntil);
        }

        @Override
        public void interrupt(String why) {
            Conversation.this.interrupt(why);
        }

        @Override
        public void withdraw() {
            Conversation.this.withdraw();
        }

        @Override
        public List<ChatMessage> history() {
            return Collections.unmodifiableList(history);
        }

        @Override
        public void remember(ChatMessage message) {
            history.add(message);
        }

        @Override
        public Map<String, Object> message(String role, String text, long startMillis, long endMillis) {
            return Conversation.this.message(role, text, startMillis, endMillis);
        }

        @Override
        public void report(Map<String, Object> message) {
            Conversation.this.report(message);
        }

        @Override
        public Knowledge knowledge() {
            return knowledge;
        }

        @Override
        public void providerFailed(String stage, ProviderError error) {
            Conversation.this.providerFailed(stage, error);
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
            plan = next;
            if ((providers.realtime() != null) == (engine instanceof RealtimeEngine)) {
                engine.switchTo(next, providers);
            } else {
                // A realtime member after a cascaded one, or the reverse: the engine changes, the call goes on.
                engine.close();
                engine = engine(parts.with(next, providers));
            }
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
            engine.replyAgain();
        }

        @Override
        public void report(String role, String text) {
            long now = System.currentTimeMillis();
            Conversation.this.report(message(role, text, now, now));
        }
    }

    // ---- timers and the end ----------------------------------------------------------------------------------

    private void armSilenceTimer() {
        cancelSilenceTimer();
        if (phase != Phase.RUNNING) {
            return;
        }
        silenceTimer = vertx.setTimer((long) (plan.silenceTimeoutSeconds() * 1000), id -> {
            silenceTimer = -1;
            if (turn == null && engine.callerIdle()) {
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
            commitUserTurn(turn);
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
        commitUserTurn(turn);
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
        commitUserTurn(turn);
        live.close();
        voicemail.close();
        keypad.close();
        keypadEntries.clear();
        for (long timer : new long[] {silenceTimer, maxDurationTimer, goodbyeTimer}) {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
        }
        cutShort();
        egress.stop();
        engine.close();
        RuntimeEvent.Usage used = usage.report();
        LOG.infof("call %s ended: %s (stt %.1f s, tokens %d+%d, tts %d characters)", plan.callId(), reason,
                used.sttSeconds(), used.llmPromptTokens(), used.llmCompletionTokens(), used.ttsCharacters());
        Map<String, Object> ended = new LinkedHashMap<>();
        ended.put("type", "ended");
        ended.put("endedReason", reason);
        channel.sendMessage(ended);
        recordings.get().otherwise(dev.voiceplane.runtime.recording.Recordings.NONE).compose(recorded -> events.report(
                n -> RuntimeEvent.ended(n, reason, used, recorded.recordingUrl(), recorded.stereoRecordingUrl())))
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

    long startedAtNanos() {
        return startedAtNanos;
    }
}
