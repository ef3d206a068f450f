package dev.voiceplane.runtime.media;

import dev.voiceplane.kit.client.PeerFailure;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.client.ControlPlane;
import dev.voiceplane.runtime.conversation.CallPlan;
import dev.voiceplane.runtime.conversation.Transfers;
import dev.voiceplane.runtime.provider.FallbackModel;
import dev.voiceplane.runtime.provider.ProviderDirectory;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderFailure;
import dev.voiceplane.runtime.provider.ProviderSet;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.function.BiConsumer;

/**
 * What one call's transfers need of the runtime (docs/voice-runtime.md, "Transfers and squads"): a squad member's
 * providers, opened by the {@link ProviderDirectory} like the first member's at admission (its providers checked,
 * the organisation's keys read from credential-service), and call-service's transfer of the carrier call. The control
 * plane is asked off the call's context; answers come back on it.
 */
final class TransferServices implements Transfers.Services {

    private final ControlPlane control;
    private final ProviderDirectory providers;
    private final Context context;
    private final CallPlan plan;
    private final AudioFormat format;
    private final BiConsumer<FallbackModel.Choice, ProviderError> fellBack;

    TransferServices(ControlPlane control, ProviderDirectory providers, Context context, CallPlan plan,
            AudioFormat format, BiConsumer<FallbackModel.Choice, ProviderError> fellBack) {
        this.control = control;
        this.providers = providers;
        this.context = context;
        this.plan = plan;
        this.format = format;
        this.fellBack = fellBack;
    }

    @Override
    public Future<ProviderSet> open(CallPlan member) {
        return providers.open(member, context, format, fellBack).recover(failure -> Future.failedFuture(
                failure instanceof ProviderFailure problem ? new IllegalStateException(problem.getMessage()) : failure));
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
