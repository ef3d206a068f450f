package dev.voiceplane.runtime.media;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.kit.auth.MediaTokens;
import dev.voiceplane.kit.error.ApiError;
import dev.voiceplane.kit.http.WebSocketHandshakes;
import dev.voiceplane.runtime.conversation.Conversation;
import dev.voiceplane.runtime.ops.LiveCalls;
import dev.voiceplane.runtime.ops.RuntimeMetrics;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The runtime's public media endpoints (docs/voice-runtime.md), routed by the Ingress under {@code /media}:
 * {@code /media/stream} takes carrier media streams — Twilio Media Streams (the media token comes as the stream's
 * {@code token} parameter in its {@code start} message) and Vonage WebSockets (the token is a header of the NCCO's
 * websocket endpoint, which Vonage repeats in its first message, {@code websocket:connected}); the first text message
 * says which — and {@code /media/web/{callId}?token=…} web calls (the token in the {@code webCallUrl}). A connection without a valid token is closed (or, for a web call, refused
 * before the upgrade with a 401 in the error shape) with a logged reason and touches no call.
 */
@ApplicationScoped
public class MediaSockets {

    private static final Logger LOG = Logger.getLogger(MediaSockets.class);
    public static final String STREAM_PATH = "/media/stream";
    public static final String WEB_PATH = "/media/web/";
    private static final int MAX_EARLY_FRAMES = 100;
    private static final int MAX_WEB_FRAME = 64 * 1024;
    /** Vonage sends 640-byte frames (20 ms of PCM16 16 kHz); anything up to this is taken as audio. */
    private static final int MAX_VONAGE_FRAME = 64 * 1024;
    /** Control messages are small (a Twilio media event is about 300 bytes); anything longer is refused unread. */
    private static final int MAX_TEXT_MESSAGE = 16 * 1024;

    private final Vertx vertx;
    private final ObjectMapper json;
    private final CallAdmission admission;
    private final RuntimeMetrics metrics;
    private final LiveCalls live;
    private final long startTimeoutMillis;

    public MediaSockets(Vertx vertx, ObjectMapper json, CallAdmission admission, RuntimeMetrics metrics,
            LiveCalls live, @ConfigProperty(name = "voice.runtime.start-timeout") Duration startTimeout) {
        this.vertx = vertx;
        // Carrier and client messages are a few levels deep; a parser with tight limits reads them.
        this.json = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
                .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                        .maxNestingDepth(16).maxStringLength(MAX_TEXT_MESSAGE).build())
                .build());
        this.admission = admission;
        this.metrics = metrics;
        this.live = live;
        this.startTimeoutMillis = startTimeout.toMillis();
    }

    void routes(@Observes Router router) {
        router.route(STREAM_PATH).order(-10).handler(this::stream);
        router.routeWithRegex("/media/web/([^/]+)").order(-10).handler(this::web);
    }

    /**
     * Answers a request that cannot complete a WebSocket handshake in the error shape (kit
     * {@link WebSocketHandshakes}): another method than GET 405, a GET that asks for no upgrade 426 ({@code what}
     * says how to connect), a missing or other version, a key that is not 16 bytes in base64, or a body 400 or 426.
     * Returns whether it answered. Nothing is upgraded and no call is touched for a refused handshake.
     */
    private static boolean handshakeRefused(RoutingContext ctx, String what) {
        HttpServerRequest request = ctx.request();
        if (request.method() == HttpMethod.GET && !WebSocketHandshakes.asksForUpgrade(request::getHeader)) {
            refuse(ctx, 426, what);
            return true;
        }
        Optional<WebSocketHandshakes.Refusal> refusal = WebSocketHandshakes.refusal(request.method().name(),
                request::getHeader);
        if (refusal.isEmpty()) {
            return false;
        }
        refusal.get().headers().forEach(ctx.response()::putHeader);
        refuse(ctx, refusal.get().status(), refusal.get().message());
        return true;
    }

    /** Upgrades a request whose handshake was checked ({@link #handshakeRefused}). */
    private static void upgradeTo(RoutingContext ctx, java.util.function.Consumer<ServerWebSocket> then) {
        try {
            ctx.request().toWebSocket().onSuccess(then::accept)
                    .onFailure(failure -> LOG.debugf("media upgrade failed: %s", failure.getMessage()));
        } catch (IllegalStateException refused) {
            refuse(ctx, 400, "the WebSocket handshake cannot be completed: " + refused.getMessage());
        }
    }

    /**
     * A frame the WebSocket decoder refused: over the frame limit (64 KiB: close 1009), text that is not UTF-8
     * (1007), or broken framing (1002). Vert.x would drop the connection without a close; the socket is closed
     * with the decoder's code instead, after the call (if any) ends with {@code unknown-error}.
     */
    private boolean corruptFrame(ServerWebSocket socket, Throwable failure, Conversation conversation) {
        if (!(failure instanceof CorruptedWebSocketFrameException corrupt)) {
            return false;
        }
        LOG.warnf("media socket closed: %s", failure.getMessage());
        metrics.refused("protocol");
        if (conversation != null) {
            conversation.hungUp("unknown-error");
        }
        int code = corrupt.closeStatus().code();
        close(socket, (short) code, code == 1009 ? "frame too large" : "protocol error");
        return true;
    }

    /** Checks a connection's token; a token that cannot be read at all is refused like any bad token. */
    private MediaTokens.Grant check(String token, String callId, String orgId) throws CallAdmission.Refused {
        try {
            return admission.check(token, callId, orgId);
        } catch (RuntimeException unreadable) {
            LOG.errorf(unreadable, "a media token could not be checked");
            throw new CallAdmission.Refused("token", "the media token cannot be read");
        }
    }

    /**
     * A stopping replica (SIGTERM: readiness is DOWN) refuses new media before the upgrade, 503 in the error shape,
     * so the carrier or client retries elsewhere; its live calls go on.
     */
    private boolean refusedWhileDraining(RoutingContext ctx) {
        if (live.accepting()) {
            return false;
        }
        LOG.infof("media connection refused: this replica is stopping");
        metrics.refused("draining");
        ctx.response().putHeader(HttpHeaders.RETRY_AFTER, "1");
        refuse(ctx, 503, "this voice runtime is stopping and accepts no new media; connect again");
        return true;
    }

    private static void refuse(RoutingContext ctx, int status, String message) {
        ctx.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(Json.encode(ApiError.of(status, message)));
    }

    // ---- carrier streams ---------------------------------------------------------------------------------------

    private void stream(RoutingContext ctx) {
        if (handshakeRefused(ctx, "the media stream is a WebSocket: connect with Upgrade: websocket")) {
            return;
        }
        if (refusedWhileDraining(ctx)) {
            return;
        }
        upgradeTo(ctx, socket -> new CarrierStream(socket).run());
    }

    /** One carrier media stream: waits for {@code start}, admits the call, then feeds the conversation. */
    private final class CarrierStream {
        private final ServerWebSocket socket;
        private final Context context = vertx.getOrCreateContext();
        private final List<byte[]> early = new ArrayList<>();
        private Conversation conversation;
        private boolean admitting;
        private boolean closed;
        private long startTimer;
        /** A Vonage stream (its first message was {@code websocket:connected}): binary audio, no marks. */
        private boolean vonage;

        CarrierStream(ServerWebSocket socket) {
            this.socket = socket;
        }

        void run() {
            startTimer = vertx.setTimer(startTimeoutMillis, id -> {
                if (conversation == null && !admitting) {
                    refused("start", "no start message within " + startTimeoutMillis + " ms");
                }
            });
            socket.frameHandler(new StrictText(this::text, (code, why) -> {
                if (code == 1009) {
                    tooLarge(why);
                } else {
                    protocolError(why);
                }
            }));
            socket.binaryMessageHandler(this::binary);
            socket.exceptionHandler(failure -> {
                if (!corruptFrame(socket, failure, conversation)) {
                    LOG.debugf("media stream failed: %s", failure.getMessage());
                }
            });
            socket.closeHandler(ignored -> {
                closed = true;
                vertx.cancelTimer(startTimer);
                if (conversation != null) {
                    conversation.hungUp(closedReason());
                }
            });
        }

        private void text(String text) {
            JsonNode message;
            try {
                message = json.readTree(text);
            } catch (Exception e) {
                protocolError("a message that is not JSON");
                return;
            }
            if (message == null || !message.isObject()) {
                protocolError("a message that is not a JSON object");
                return;
            }
            String event = message.path("event").asText("");
            if (vonage || event.startsWith("websocket:")) {
                vonageEvent(event, message);
                return;
            }
            switch (event) {
                case "connected" -> {
                }
                case "start" -> start(message.path("start"), message.path("streamSid").asText(""));
                case "media" -> media(message.path("media"));
                case "mark" -> {
                    if (conversation != null) {
                        conversation.markPlayed(message.path("mark").path("name").asText(""));
                    }
                }
                case "dtmf" -> {
                    // Twilio's {"event":"dtmf","dtmf":{"track":"inbound_track","digit":"5"}}: the caller's keys only.
                    JsonNode dtmf = message.path("dtmf");
                    if ("inbound_track".equals(dtmf.path("track").asText("inbound_track"))) {
                        callerDtmf("twilio", parameter(dtmf, "digit"));
                    }
                }
                case "stop" -> {
                    if (conversation != null) {
                        conversation.hungUp("customer-ended-call");
                    }
                    socket.close();
                }
                default -> LOG.debugf("media stream event ignored: %s", event);
            }
        }

        private void start(JsonNode start, String streamSid) {
            if (conversation != null || admitting) {
                protocolError("a second start message");
                return;
            }
            JsonNode parameters = start.path("customParameters");
            String sid = start.path("streamSid").asText(streamSid);
            if (sid.isEmpty() || sid.length() > 64 || !sid.chars().allMatch(c -> Character.isLetterOrDigit(c))) {
                refused("start", "the start message has no valid streamSid");
                return;
            }
            MediaTokens.Grant grant;
            try {
                grant = check(parameter(parameters, "token"), parameter(parameters, "callId"),
                        parameter(parameters, "orgId"));
            } catch (CallAdmission.Refused refused) {
                refused(refused.metric, refused.getMessage());
                return;
            }
            admit(grant, new TwilioChannel(socket, sid));
        }

        /** Attaches the call with the transport's channel; audio that came meanwhile is handed on once it runs. */
        private void admit(MediaTokens.Grant grant, MediaChannel channel) {
            admitting = true;
            vertx.cancelTimer(startTimer);
            admission.admit(grant, channel, context).onComplete(admitted -> {
                admitting = false;
                if (admitted.failed()) {
                    CallAdmission.Refused refused = admitted.cause() instanceof CallAdmission.Refused r ? r
                            : null;
                    String reason = refused != null ? refused.getMessage() : admitted.cause().toString();
                    metrics.refused(refused != null ? refused.metric : "error");
                    LOG.warnf("media stream for call %s refused: %s", grant.callId(), reason);
                    if (refused == null || !"provider".equals(refused.metric)) {
                        MediaSockets.close(socket, (short) 1008, "refused");
                    }
                    return;
                }
                conversation = admitted.result();
                if (closed) {
                    conversation.hungUp(closedReason());
                    return;
                }
                for (byte[] audio : early) {
                    conversation.audio(audio);
                }
                early.clear();
            });
        }

        private void media(JsonNode media) {
            if (conversation == null && !admitting) {
                return;
            }
            JsonNode payload = media.path("payload");
            if (!payload.isTextual()) {
                protocolError("a media message without a payload");
                return;
            }
            byte[] audio;
            try {
                audio = Base64.getDecoder().decode(payload.asText());
            } catch (IllegalArgumentException e) {
                protocolError("a media payload that is not base64");
                return;
            }
            if (conversation != null) {
                conversation.audio(audio);
            } else if (early.size() < MAX_EARLY_FRAMES) {
                early.add(audio);
            }
        }

        /**
         * A Vonage stream's text messages: {@code websocket:connected} first (with the NCCO's headers: callId, orgId,
         * token), then {@code websocket:dtmf} and {@code websocket:cleared} (the answer to a clear); others are
         * ignored. A {@code websocket:connected} on a stream that started otherwise is a protocol error.
         */
        private void vonageEvent(String event, JsonNode message) {
            switch (event) {
                case "websocket:connected" -> vonageConnected(message);
                case "websocket:dtmf" -> callerDtmf("vonage", parameter(message, "digit"));
                default -> LOG.debugf("media stream event ignored: %s", event);
            }
        }

        private void vonageConnected(JsonNode message) {
            if (vonage || conversation != null || admitting) {
                protocolError("a second opening message (websocket:connected)");
                return;
            }
            vonage = true;
            String contentType = parameter(message, "content-type");
            if (!VonageChannel.supported(contentType)) {
                // The sender's text, cut short: it goes into a log line.
                String shown = contentType == null ? "missing"
                        : contentType.length() > 40 ? contentType.substring(0, 40) + "…" : contentType;
                refused("format", "the Vonage stream's content-type is " + shown + ", not "
                        + VonageChannel.CONTENT_TYPE);
                return;
            }
            MediaTokens.Grant grant;
            try {
                grant = check(parameter(message, "token"), parameter(message, "callId"),
                        parameter(message, "orgId"));
            } catch (CallAdmission.Refused refused) {
                refused(refused.metric, refused.getMessage());
                return;
            }
            admit(grant, new VonageChannel(socket));
        }

        /** Caller audio from Vonage: PCM16 LE 16 kHz, 640 bytes per 20 ms; Twilio never sends binary frames. */
        private void binary(io.vertx.core.buffer.Buffer frame) {
            if (!vonage) {
                protocolError("a binary frame before websocket:connected (or on a Twilio media stream)");
                return;
            }
            if (frame.length() > MAX_VONAGE_FRAME) {
                tooLarge("a Vonage message of " + frame.length() + " bytes");
                return;
            }
            if (frame.length() % 2 != 0) {
                protocolError("a Vonage frame of " + frame.length() + " bytes is not PCM16 audio");
                return;
            }
            if (conversation != null) {
                conversation.audio(frame.getBytes());
            } else if (admitting && early.size() < MAX_EARLY_FRAMES) {
                early.add(frame.getBytes());
            }
        }

        private void callerDtmf(String transport, String digit) {
            MediaSockets.this.callerDtmf(conversation, transport, digit);
        }

        /**
         * Why the call ends when the stream closes without the runtime closing it. Twilio says {@code stop} first when
         * the caller hangs up, so a bare close is the carrier's; Vonage sends nothing before it closes the socket
         * when the call ends, so its normal close (1000) is the caller's hang-up and any other the carrier's.
         */
        private String closedReason() {
            Short code = socket.closeStatusCode();
            return vonage && code != null && code == 1000 ? "customer-ended-call"
                    : "phone-call-provider-closed-websocket";
        }

        private void tooLarge(String what) {
            LOG.warnf("media stream closed: %s", what);
            metrics.refused("protocol");
            if (conversation != null) {
                conversation.hungUp("unknown-error");
            }
            MediaSockets.close(socket, (short) 1009, "message too long");
        }

        private void protocolError(String what) {
            LOG.warnf("media stream closed: %s", what);
            metrics.refused("protocol");
            if (conversation != null) {
                conversation.hungUp("unknown-error");
            }
            MediaSockets.close(socket, (short) 1007, "protocol error");
        }

        private void refused(String metric, String reason) {
            LOG.warnf("media stream refused: %s", reason);
            metrics.refused(metric);
            MediaSockets.close(socket, (short) 1008, "refused");
        }
    }

    /**
     * A key the caller pressed goes to the conversation, which takes it when the assistant's {@code keypadInputPlan}
     * is enabled (docs/voice-runtime.md "Keypad"); otherwise (or before the call runs, or for what is no key) it is
     * dropped, but counted ({@code voice_runtime_caller_dtmf_dropped_total{transport}}) and logged (without the digit,
     * which may be part of a PIN) rather than lost unseen.
     */
    private void callerDtmf(Conversation conversation, String transport, String digit) {
        if (conversation != null && conversation.keypad(digit)) {
            return;
        }
        metrics.callerDtmfDropped(transport);
        LOG.infof("a caller's DTMF digit on a %s stream was dropped: keypad input is not enabled for the call",
                transport);
    }

    private static String parameter(JsonNode parameters, String name) {
        JsonNode value = parameters.path(name);
        return value.isTextual() ? value.asText() : null;
    }

    // ---- web calls ---------------------------------------------------------------------------------------------

    private void web(RoutingContext ctx) {
        if (refusedWhileDraining(ctx)) {
            return;
        }
        String callId = ctx.pathParam("param0");
        MediaTokens.Grant grant;
        try {
            grant = check(ctx.request().getParam("token"), callId, null);
        } catch (CallAdmission.Refused refused) {
            LOG.warnf("web call connection refused: %s", refused.getMessage());
            metrics.refused(refused.metric);
            refuse(ctx, 401, "a web call needs the token of its webCallUrl: " + refused.getMessage());
            return;
        }
        if (handshakeRefused(ctx, "a web call is a WebSocket: connect with Upgrade: websocket")) {
            return;
        }
        upgradeTo(ctx, socket -> webCall(socket, grant));
    }

    private void webCall(ServerWebSocket socket, MediaTokens.Grant grant) {
        Context context = vertx.getOrCreateContext();
        WebCallChannel channel = new WebCallChannel(socket, json);
        Conversation[] conversation = new Conversation[1];
        boolean[] closed = new boolean[1];
        socket.closeHandler(ignored -> {
            closed[0] = true;
            if (conversation[0] != null) {
                conversation[0].hungUp("customer-ended-call");
            }
        });
        socket.exceptionHandler(failure -> {
            if (!corruptFrame(socket, failure, conversation[0])) {
                LOG.debugf("web call %s failed: %s", grant.callId(), failure.getMessage());
            }
        });
        socket.binaryMessageHandler(audio -> {
            if (audio.length() > MAX_WEB_FRAME || audio.length() % 2 != 0) {
                boolean tooLarge = audio.length() > MAX_WEB_FRAME;
                LOG.warnf("web call %s closed: a message of %d bytes is %s", grant.callId(), audio.length(),
                        tooLarge ? "over 64 KiB" : "not PCM16 audio");
                metrics.refused("protocol");
                if (conversation[0] != null) {
                    conversation[0].hungUp("unknown-error");
                }
                MediaSockets.close(socket, tooLarge ? (short) 1009 : (short) 1007,
                        tooLarge ? "message too long" : "protocol error");
                return;
            }
            if (conversation[0] != null) {
                conversation[0].audio(audio.getBytes());
            }
        });
        Runnable protocolError = () -> {
            metrics.refused("protocol");
            if (conversation[0] != null) {
                conversation[0].hungUp("unknown-error");
            }
        };
        socket.frameHandler(new StrictText(text -> {
            JsonNode message;
            try {
                message = json.readTree(text);
            } catch (Exception e) {
                message = null;
            }
            if (message == null || !message.isObject()) {
                LOG.warnf("web call %s closed: a control message that is not a JSON object", grant.callId());
                protocolError.run();
                MediaSockets.close(socket, (short) 1007, "protocol error");
                return;
            }
            if (conversation[0] == null) {
                return;
            }
            switch (message.path("type").asText("")) {
                case "mark" -> conversation[0].markPlayed(message.path("name").asText(""));
                case "dtmf" -> callerDtmf(conversation[0], "web", parameter(message, "digit"));
                case "hangup" -> {
                    conversation[0].hungUp("customer-ended-call");
                    socket.close();
                }
                default -> {
                }
            }
        }, (code, why) -> {
            LOG.warnf("web call %s closed: %s", grant.callId(), why);
            protocolError.run();
            MediaSockets.close(socket, (short) (int) code, code == 1009 ? "message too long" : "protocol error");
        }));
        admission.admit(grant, channel, context).onComplete(admitted -> {
            if (admitted.failed()) {
                CallAdmission.Refused refused = admitted.cause() instanceof CallAdmission.Refused r ? r : null;
                metrics.refused(refused != null ? refused.metric : "error");
                LOG.warnf("web call %s refused: %s", grant.callId(),
                        refused != null ? refused.getMessage() : admitted.cause().toString());
                if (refused == null || !"provider".equals(refused.metric)) {
                    channel.sendMessage(java.util.Map.of("type", "error", "message", "the call cannot be joined"));
                    MediaSockets.close(socket, (short) 1008, "refused");
                }
                return;
            }
            conversation[0] = admitted.result();
            if (closed[0]) {
                conversation[0].hungUp("customer-ended-call");
            } else {
                channel.sendMessage(java.util.Map.of("type", "started", "callId", grant.callId().toString()));
            }
        });
    }

    /**
     * Text messages assembled from their frames and read as strict UTF-8 (Vert.x would put U+FFFD in place of
     * bytes that are not UTF-8): a message that is not UTF-8 fails with 1007, one over {@value #MAX_TEXT_MESSAGE}
     * bytes (however fragmented) with 1009, unread. Binary frames and their continuations are left to the socket's
     * binary handler.
     */
    static final class StrictText implements io.vertx.core.Handler<io.vertx.core.http.WebSocketFrame> {
        private final java.util.function.Consumer<String> text;
        private final java.util.function.BiConsumer<Integer, String> failed;
        private final java.io.ByteArrayOutputStream pending = new java.io.ByteArrayOutputStream();
        /** One per socket (its frames come on one context): strict, as RFC 6455 asks of a text message. */
        private final java.nio.charset.CharsetDecoder utf8 = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        private boolean inText;
        private boolean done;

        StrictText(java.util.function.Consumer<String> text, java.util.function.BiConsumer<Integer, String> failed) {
            this.text = text;
            this.failed = failed;
        }

        @Override
        public void handle(io.vertx.core.http.WebSocketFrame frame) {
            if (done || !(frame.isText() || (frame.isContinuation() && inText))) {
                return;
            }
            if (frame.isText()) {
                pending.reset();
            }
            inText = !frame.isFinal();
            io.vertx.core.buffer.Buffer data = frame.binaryData();
            if (pending.size() + data.length() > MAX_TEXT_MESSAGE) {
                done = true;
                failed.accept(1009, "a text message over " + MAX_TEXT_MESSAGE + " bytes");
                return;
            }
            pending.writeBytes(data.getBytes());
            if (inText) {
                return;
            }
            String decoded;
            try {
                decoded = utf8.reset().decode(java.nio.ByteBuffer.wrap(pending.toByteArray())).toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                done = true;
                failed.accept(1007, "a text message that is not UTF-8");
                return;
            } finally {
                pending.reset();
            }
            text.accept(decoded);
        }
    }

    static void close(ServerWebSocket socket, short code, String reason) {
        if (!socket.isClosed()) {
            socket.close(code, reason);
        }
    }
}
