package dev.voiceplane.runtime.conversation;

import dev.voiceplane.contracts.call.RuntimeEvent;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.media.MediaChannel;
import dev.voiceplane.runtime.ops.RuntimeMetrics;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The call's live messages (docs/voice-runtime.md, "Live messages"): {@code transcript}, {@code speech-update},
 * {@code conversation-update}, {@code model-output}, {@code user-interrupted} and {@code hang}, sent as they happen
 * to the assistant's server (a {@code server-message} event to call-service, which writes it to the outbox; only
 * the kinds the assistant lists in {@code serverMessages}) and to a web-call client (the kinds it lists in
 * {@code clientMessages}), in the same shapes. Called on the call's context only.
 *
 * <p>Volume: a partial transcript or a model token still waiting behind the call's earlier events is merged into
 * the newer one (the newest partial replaces it; model output is joined), so a slow call-service receives fewer,
 * larger messages and never a stale partial after a newer one; the order of everything else stays as it happened.
 */
final class LiveMessages {

    /**
     * The assistant has not started to answer this long after the caller's turn ended: a {@code hang}
     * ({@code VOICE_HANG_TIMEOUT}, 5 s: past any usual first token and first audio, and before a stage's deadline
     * ends the call, so the server hears of a slow answer while it can still come).
     */
    static final String HANG_TIMEOUT = "voice.runtime.hang-timeout";

    private final CallPlan plan;
    private final MediaChannel channel;
    private final Conversation.EventSink events;
    private final RuntimeMetrics metrics;
    private final Vertx vertx;
    private final long hangMillis;
    private final List<Map<String, Object>> messages = new ArrayList<>();
    private boolean assistantSpeaking;
    private long hangTimer = -1;
    private boolean closed;

    LiveMessages(CallPlan plan, MediaChannel channel, Conversation.EventSink events, RuntimeMetrics metrics,
            Vertx vertx) {
        this.plan = plan;
        this.channel = channel;
        this.events = events;
        this.metrics = metrics;
        this.vertx = vertx;
        // Read per call (a map lookup) rather than passed in: the conversation's parts stay as they are.
        this.hangMillis = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getOptionalValue(HANG_TIMEOUT, java.time.Duration.class).map(java.time.Duration::toMillis)
                .orElse(5_000L);
    }

    /** {@code speech-update}: {@code role} (user, assistant) started or stopped speaking. */
    void speech(String role, boolean started) {
        if ("assistant".equals(role)) {
            if (assistantSpeaking == started) {
                return;
            }
            assistantSpeaking = started;
        }
        if (started) {
            cancelHang(); // the caller speaks, or the assistant answers: nobody waits on the assistant
        }
        Map<String, Object> message = kind("speech-update");
        message.put("status", started ? "started" : "stopped");
        message.put("role", role);
        send(message, null);
    }

    /** {@code transcript}: a partial (the transcriber's interim words) or final line of {@code role}. */
    void transcript(String role, String transcriptType, String text) {
        if (text == null || text.isBlank()) {
            return;
        }
        Map<String, Object> message = kind("transcript");
        message.put("role", role);
        message.put("transcriptType", transcriptType);
        message.put("transcript", text);
        boolean partial = "partial".equals(transcriptType);
        // A web client gets its final lines as the transcript records them (Conversation.report): partials only here.
        send(message, partial ? "transcript-partial-" + role : null, true, partial);
    }

    /** A transcript message the call recorded: the assistant's final line, and the conversation so far. */
    void committed(Map<String, Object> recorded) {
        messages.add(recorded);
        if ("bot".equals(recorded.get("role"))) {
            Map<String, Object> transcript = kind("transcript");
            transcript.put("role", "assistant");
            transcript.put("transcriptType", "final");
            transcript.put("transcript", recorded.get("message"));
            send(transcript, null, true, false);
        }
        if (!wanted("conversation-update")) {
            return;
        }
        Map<String, Object> update = kind("conversation-update");
        update.put("messages", List.copyOf(messages));
        List<Map<String, Object>> openAi = new ArrayList<>();
        for (ChatMessage prompt : plan.model().messages()) {
            openAi.add(Map.of("role", prompt.role(), "content", prompt.content()));
        }
        for (Map<String, Object> message : messages) {
            Object role = message.get("role");
            openAi.add(Map.of("role", "bot".equals(role) ? "assistant" : String.valueOf(role),
                    "content", String.valueOf(message.get("message"))));
        }
        update.put("messagesOpenAIFormatted", openAi);
        send(update, null);
    }

    /** {@code model-output}: text the model streamed. */
    void modelOutput(String delta) {
        Map<String, Object> message = kind("model-output");
        message.put("output", delta);
        send(message, "model-output");
    }

    /** The caller spoke over the assistant: {@code user-interrupted}, and the assistant stopped speaking. */
    void interrupted() {
        send(kind("user-interrupted"), null);
        speech("assistant", false);
    }

    /** The caller's turn ended: the assistant should start to answer within the hang timeout. */
    void awaitingReply() {
        cancelHang();
        if (!wanted("hang")) {
            return;
        }
        hangTimer = vertx.setTimer(hangMillis, id -> {
            hangTimer = -1;
            if (closed) {
                return;
            }
            if (plan.serverMessages().contains("hang")) {
                events.report(RuntimeEvent::hang);
            }
            if (plan.clientMessages().contains("hang")) {
                channel.sendMessage(kind("hang"));
            }
        });
    }

    void close() {
        closed = true;
        cancelHang();
    }

    private void cancelHang() {
        if (hangTimer >= 0) {
            vertx.cancelTimer(hangTimer);
            hangTimer = -1;
        }
    }

    private boolean wanted(String kind) {
        return plan.serverMessages().contains(kind) || plan.clientMessages().contains(kind);
    }

    private Map<String, Object> kind(String type) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("type", type);
        return message;
    }

    private void send(Map<String, Object> message, String mergeKey) {
        send(message, mergeKey, true, true);
    }

    /** To the server (when it lists the kind; merged under {@code mergeKey} when given) and to the client. */
    private void send(Map<String, Object> message, String mergeKey, boolean toServer, boolean toClient) {
        if (closed) {
            return;
        }
        String type = (String) message.get("type");
        if (toServer && plan.serverMessages().contains(type)) {
            if (mergeKey == null) {
                events.report(n -> RuntimeEvent.serverMessage(n, message));
                metrics.liveMessage(type, false);
            } else {
                boolean merged = events.reportMerging(mergeKey, n -> RuntimeEvent.serverMessage(n, message),
                        (waiting, newer) -> "model-output".equals(type) ? joined(waiting, newer) : newer);
                metrics.liveMessage(type, merged);
            }
        }
        if (toClient && plan.clientMessages().contains(type)) {
            channel.sendMessage(message);
        }
    }

    /** Two model outputs waiting as one: their text joined, under the first one's sequence. */
    private static RuntimeEvent joined(RuntimeEvent waiting, RuntimeEvent newer) {
        Map<String, Object> message = new LinkedHashMap<>(waiting.serverMessage());
        message.put("output", String.valueOf(waiting.serverMessage().get("output"))
                + newer.serverMessage().get("output"));
        return RuntimeEvent.serverMessage(waiting.sequence(), message);
    }
}
