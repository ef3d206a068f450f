package dev.voiceplane.runtime.media;

import dev.voiceplane.kit.client.PeerFailure;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.client.ControlPlane;
import dev.voiceplane.runtime.conversation.CallPlan;
import dev.voiceplane.runtime.conversation.Transfers;
import dev.voiceplane.runtime.provider.ProviderDirectory;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.Optional;

/**
 * What one call's transfers need of the runtime (docs/voice-runtime.md, "Transfers and squads"): a squad member's
 * providers, built like the first member's at admission (its providers checked, the organisation's keys read from
 * credential-service), and call-service's transfer of the carrier call. The control plane is asked off the call's
 * context; answers come back on it.
 */
final class TransferServices implements Transfers.Services {

    private final ControlPlane control;
    private final ProviderDirectory providers;
    private final Context context;
    private final CallPlan plan;
    private final AudioFormat format;

    TransferServices(ControlPlane control, ProviderDirectory providers, Context context, CallPlan plan,
            AudioFormat format) {
        this.control = control;
        this.providers = providers;
        this.context = context;
        this.plan = plan;
        this.format = format;
    }

    @Override
    public Future<Transfers.Providers> open(CallPlan member) {
        Optional<String> unsupported = ProviderDirectory.unsupported(member);
        if (unsupported.isPresent()) {
            return Future.failedFuture(new IllegalStateException(unsupported.get()));
        }
        return context.<String[]>executeBlocking(() -> {
            String[] keys = new String[3];
            String[] stages = {member.transcriber().provider(), member.model().provider(), member.voice().provider()};
            for (int i = 0; i < stages.length; i++) {
                String credential = ProviderDirectory.credentialOf(stages[i]);
                Optional<String> key = control.apiKey(plan.orgId(), credential);
                if (key.isEmpty() && !ProviderDirectory.keyOptional(stages[i])) {
                    throw new IllegalStateException("the organisation has no " + credential + " credential");
                }
                keys[i] = key.orElse(null);
            }
            return keys;
        }, false).map(keys -> new Transfers.Providers(providers.model(member, keys[1]),
                providers.voice(member, keys[2], format),
                listener -> providers.transcriber(context, member, keys[0], format, listener)));
    }

    @Override
    public Future<Void> transfer(String number) {
        return context.<Void>executeBlocking(() -> {
            try {
                control.transfer(plan.orgId(), plan.callId(), number);
            } catch (PeerFailure.Rejected refused) {
                throw new IllegalStateException(refused.status() == 409 ? "the call cannot be transferred"
                        : "the carrier refused the transfer");
            } catch (RuntimeException unavailable) {
                throw new IllegalStateException("the phone system could not be reached");
            }
            return null;
        }, false);
    }
}
