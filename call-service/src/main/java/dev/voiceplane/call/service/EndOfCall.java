package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallView;
import dev.voiceplane.call.api.CostBreakdown;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.repository.CallDocuments;
import dev.voiceplane.call.repository.CallEvents;
import dev.voiceplane.call.repository.CallRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The end of a call: once it has ended and the runtime has reported its usage (or the report grace has passed, or
 * the runtime never took the call), the cost is computed from the rate card, the analysis plan runs (outside any
 * transaction: it calls the organisation's LLM), and then, in one transaction, cost, analysis and the
 * {@code end-of-call-report} are written. Done once: a second finaliser finds the call finalised and writes nothing.
 */
@ApplicationScoped
public class EndOfCall {

    private final CallRepository calls;
    private final CallEvents events;
    private final CallDocuments documents;
    private final Configurations configurations;
    private final Details details;
    private final CallViews views;
    private final CallAnalyst analyst;
    private final ServerMessages messages;
    private final RateCard rates;
    private final LineRates lineRates;
    private final String analysisModel;
    private final ObjectMapper json;

    public EndOfCall(CallRepository calls, CallEvents events, CallDocuments documents, Configurations configurations, Details details,
            CallViews views, CallAnalyst analyst, ServerMessages messages, RateCard rates, LineRates lineRates,
            @ConfigProperty(name = "voice.analysis.model") String analysisModel, ObjectMapper json) {
        this.calls = calls;
        this.events = events;
        this.documents = documents;
        this.configurations = configurations;
        this.details = details;
        this.views = views;
        this.analyst = analyst;
        this.messages = messages;
        this.rates = rates;
        this.lineRates = lineRates;
        this.analysisModel = analysisModel;
        this.json = json;
    }

    /** Finalises the call if it is ready (see the class comment); {@code force} is the sweeper after the grace. */
    public void finaliseIfReady(String orgId, UUID id, boolean force) {
        Call call = calls.findOwned(orgId, id).orElse(null);
        if (call == null || !call.ended() || call.finalised) {
            return;
        }
        // A runtime takes a call by attaching to it (or, for a runtime of the earlier contract, by reporting on it).
        boolean runtimeNeverTookIt = call.runtimeAttachedAt == null
                && !QuarkusTransaction.joiningExisting().call(() -> events.any(orgId, id, RuntimeEvents.SOURCE));
        if (!force && !call.runtimeEnded && !runtimeNeverTookIt) {
            return; // the runtime's report (usage, transcript, recordings) is still to come
        }
        CallDocuments.Stored stored = documents.read(orgId, id);
        CallView view = views.view(call, stored);
        AssistantSettings settings = AssistantSettings.of(configurations.effectiveAssistant(
                configurations.read(stored.configuration(), call.sealingContext())));
        CallAnalyst.Result analysis = analyst.analyse(orgId, settings, view.transcript());
        Costs.Result costs = Costs.of(rates, lineRates, usage(call), new Costs.Analysis(CallAnalyst.PROVIDER,
                analysisModel, analysis.summary(), analysis.structuredData(), analysis.successEvaluation()));
        CostBreakdown cost = costs.breakdown();
        QuarkusTransaction.requiringNew().run(() -> {
            Call locked = calls.findOwnedForChange(orgId, id).orElse(null);
            if (locked == null || locked.finalised) {
                return;
            }
            ObjectNode row = details.read(locked);
            row.set("costBreakdown", json.valueToTree(cost));
            row.set("costs", json.valueToTree(costs.costs()));
            if (analysis.analysis() != null) {
                row.set("analysis", json.valueToTree(analysis.analysis()));
            }
            details.write(locked, row);
            locked.cost = cost.total();
            locked.finalised = true;
            locked.touch();
            messages.endOfCallReport(locked);
        });
    }

    private Costs.Usage usage(Call call) {
        InternalDetails.RuntimeUsage usage = details.kept(call).usage();
        BigDecimal duration;
        if (call.carrierDurationSeconds != null) {
            duration = BigDecimal.valueOf(call.carrierDurationSeconds);
        } else if (call.startedAt != null && call.endedAt != null) {
            duration = BigDecimal.valueOf(Math.max(0, Duration.between(call.startedAt, call.endedAt).toMillis()))
                    .movePointLeft(3);
        } else {
            duration = BigDecimal.ZERO;
        }
        // A runtime of the previous release reports totals only: they are costed as lines of no provider.
        List<Costs.Line> lines = !usage.lines().isEmpty() ? usage.lines() : Costs.fromTotals(usage.sttSeconds(),
                usage.llmPromptTokens(), usage.llmCompletionTokens(), usage.ttsCharacters());
        return new Costs.Usage(duration, call.type.phone(), call.phoneCallProvider, lines);
    }
}
