package dev.voiceplane.runtime.media;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.auth.MediaTokenKey;
import dev.voiceplane.kit.auth.MediaTokens;
import dev.voiceplane.runtime.audio.VoiceDetection;
import dev.voiceplane.runtime.client.ControlPlane;
import dev.voiceplane.contracts.call.RuntimeEvent;
import dev.voiceplane.runtime.conversation.CallPlan;
import dev.voiceplane.runtime.conversation.Conversation;
import dev.voiceplane.runtime.ops.LiveCalls;
import dev.voiceplane.runtime.ops.RuntimeMetrics;
import dev.voiceplane.runtime.provider.FallbackModel;
import dev.voiceplane.runtime.provider.ProviderDirectory;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderFailure;
import dev.voiceplane.runtime.provider.ProviderSet;
import io.vertx.core.Context;
import io.vertx.core.Future;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Lets a media connection in: its token is checked first (nothing else is contacted for a connection without a
 * valid one), then call-service attaches the runtime to the call (once: a second connection for the same call is
 * refused), the plan's providers are checked and the organisation's keys read. A call this runtime cannot run
 * (a provider it does not speak, no key) is ended with {@code assistant-error}, a transcript line saying why, and a
 * log line naming the provider.
 */
@ApplicationScoped
public class CallAdmission {

    private static final Logger LOG = Logger.getLogger(CallAdmission.class);

    /** A refused connection: why (logged), and the close code for the socket. */
    public static final class Refused extends Exception {
        final String metric;

        Refused(String metric, String reason) {
            super(reason, null, false, false);
            this.metric = metric;
        }
    }

    private record Prepared(CallPlan plan, ProviderSet providers, ProviderFailure problem) {
    }

    private final MediaTokenKey tokens;
    private final ControlPlane control;
    private final ProviderDirectory providers;
    private final RuntimeMetrics metrics;
    private final LiveCalls live;
    private final VoiceDetection vad;
    private final long leadMillis;
    private final dev.voiceplane.runtime.recording.CallSound sound;
    private final HeldConversations held;
    private final OwnAddress address;
    private final dev.voiceplane.runtime.conversation.KnowledgeBases knowledgeBases;
    private final ToolRegistry tools;
    private final boolean preemptive;

    public CallAdmission(MediaTokenKey tokens, ControlPlane control, ProviderDirectory providers,
            RuntimeMetrics metrics, LiveCalls live, VoiceDetection vad,
            @ConfigProperty(name = "voice.runtime.output-lead-millis") long leadMillis,
            dev.voiceplane.runtime.recording.CallSound sound, HeldConversations held, OwnAddress address,
            dev.voiceplane.runtime.conversation.KnowledgeBases knowledgeBases, ToolRegistry tools,
            @ConfigProperty(name = "voice.runtime.preemptive-replies") boolean preemptive) {
        this.preemptive = preemptive;
        this.sound = sound;
        this.held = held;
        this.address = address;
        this.tokens = tokens;
        this.control = control;
        this.providers = providers;
        this.metrics = metrics;
        this.live = live;
        this.vad = vad;
        this.leadMillis = leadMillis;
        this.knowledgeBases = knowledgeBases;
        this.tools = tools;
    }

    /** Checks a token for a call; {@code callId}/{@code orgId} (when the transport names them) must be its own. */
    public MediaTokens.Grant check(String token, String callId, String orgId) throws Refused {
        if (!live.accepting()) {
            throw new Refused("draining", "this replica is stopping and accepts no new media");
        }
        MediaTokens verifier = tokens.tokens()
                .orElseThrow(() -> new Refused("no-key", "VOICE_MEDIA_TOKEN_KEY is not set, so no media can be accepted"));
        MediaTokens.Grant grant;
        try {
            grant = verifier.verify(token, Instant.now());
        } catch (MediaTokens.Refused refused) {
            throw new Refused("token", refused.getMessage());
        }
        if (callId != null && !callId.equals(grant.callId().toString())) {
            throw new Refused("token", "media token is for another call");
        }
        if (orgId != null && !orgId.equals(grant.orgId())) {
            throw new Refused("token", "media token is for another organisation");
        }
        return grant;
    }

    /**
     * Attaches to the call and starts its conversation on {@code context} (the socket's). Fails with
     * {@link Refused} when call-service will not attach (unknown, ended, attached already).
     */
    public Future<Conversation> admit(MediaTokens.Grant grant, MediaChannel channel, Context context) {
        UUID callId = grant.callId();
        String orgId = grant.orgId();
        return context.<Prepared>executeBlocking(() -> prepare(orgId, callId, channel, context), false)
                .compose(prepared -> {
            if (prepared.problem() != null) {
                refuseToRun(prepared.plan(), prepared.problem(), channel, context);
                return Future.failedFuture(new Refused("provider", prepared.problem().getMessage()));
            }
            Conversation conversation = start(prepared, channel, context);
            return Future.succeededFuture(conversation);
        }, failure -> Future.failedFuture(failure instanceof ControlPlane.AttachRefused refused
                ? new Refused("attach", refused.getMessage())
                : new Refused("control-plane", "the call could not be attached: " + failure.getMessage())));
    }

    /** Attaches, reads the plan and opens its providers (the organisation's keys read here, once). */
    private Prepared prepare(String orgId, UUID callId, MediaChannel channel, Context context) {
        JsonNode configuration = control.attach(orgId, callId);
        CallPlan plan = CallPlan.read(callId, orgId, configuration);
        try {
            return new Prepared(plan, providers.openBlocking(plan, context, channel.format(), this::fellBack), null);
        } catch (ProviderFailure problem) {
            return new Prepared(plan, null, problem);
        }
    }

    /** A model of the fallback chain failed before it answered: the next one is asked (docs/voice-runtime.md). */
    private void fellBack(FallbackModel.Choice choice, ProviderError error) {
        metrics.providerError(error.provider(), ProviderDirectory.MODEL, error.kind());
        LOG.warnf("model %s of provider %s failed: %s (%s); the next model is asked", choice.modelId(),
                choice.provider(), error.detail(), error.kind().label());
    }

    private Conversation start(Prepared prepared, MediaChannel channel, Context context) {
        CallPlan plan = prepared.plan();
        // Every log line of the call (on its context) carries its id and organisation (JSON logs: fields).
        org.jboss.logging.MDC.put("callId", plan.callId().toString());
        org.jboss.logging.MDC.put("orgId", plan.orgId());
        ProviderSet set = prepared.providers();
        dev.voiceplane.runtime.conversation.EventReporter sink = new dev.voiceplane.runtime.conversation.EventReporter(control, context, plan.orgId(), plan.callId());
        // Recording and background sound sit between the conversation and the transport (docs/voice-runtime.md).
        dev.voiceplane.runtime.recording.CallSound.Attached attached = sound.attach(plan, channel, context);
        Conversation conversation = new Conversation(new Conversation.Parts(plan, attached.channel(), context,
                set.transcriber(), set.model(), set.voice(), vad.factory(), leadMillis, sink, metrics, tools.runners(),
                new TransferServices(control, providers, context, plan, channel.format(), this::fellBack),
                set.realtime()).preemptive(preemptive));
        knowledgeBases.of(plan, context).ifPresent(conversation::knowledge);
        Runnable unregister = live.add(reason -> context.runOnContext(ignored -> conversation.hungUp(reason)));
        conversation.onEnded(reason -> unregister.run());
        attached.hook(conversation);
        conversation.start();
        if (plan.voicemailMessage() != null && !plan.voicemailMessage().isBlank()) {
            reachable(plan, context, conversation);
        }
        LOG.infof("call %s (organisation %s): media attached (%s)", plan.callId(), plan.orgId(), channel.format());
        return conversation;
    }

    /**
     * A call that may meet an answering machine tells call-service where it is held (docs/voice-runtime.md,
     * "Voicemail"), off the call's start: a machine result that came first is in the answer.
     */
    private void reachable(CallPlan plan, Context context, Conversation conversation) {
        Runnable unheld = held.add(plan.callId(), plan.orgId(), context, conversation);
        conversation.onEnded(reason -> unheld.run());
        context.<Optional<String>>executeBlocking(() -> control.registerAddress(plan.orgId(), plan.callId(),
                address.url()), false).onComplete(registered -> {
                    if (registered.failed()) {
                        LOG.warnf("call %s: call-service could not be given the runtime's address: %s", plan.callId(),
                                registered.cause().getMessage());
                    } else {
                        registered.result().ifPresent(conversation::machineDetected);
                    }
                });
    }

    /** Ends a call the runtime cannot run: a transcript line and {@code ended} (assistant-error), then the socket. */
    private void refuseToRun(CallPlan plan, ProviderFailure failure, MediaChannel channel, Context context) {
        String problem = failure.getMessage();
        LOG.errorf("call %s (organisation %s) cannot run: %s", plan.callId(), plan.orgId(), problem);
        metrics.providerError(failure.provider(), "start", failure.kind());
        dev.voiceplane.runtime.conversation.EventReporter sink = new dev.voiceplane.runtime.conversation.EventReporter(control, context, plan.orgId(), plan.callId());
        long now = System.currentTimeMillis();
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "system");
        message.put("message", "The call could not start: " + problem + ".");
        message.put("time", now);
        message.put("endTime", now);
        message.put("secondsFromStart", 0);
        sink.report(n -> RuntimeEvent.message(n, message));
        sink.report(n -> RuntimeEvent.ended(n, "assistant-error", new RuntimeEvent.Usage(0, 0, 0, 0)))
                .onComplete(done -> {
                    channel.sendMessage(Map.of("type", "ended", "endedReason", "assistant-error",
                            "message", "The call could not start: " + problem + "."));
                    channel.close("assistant-error");
                });
    }
}
