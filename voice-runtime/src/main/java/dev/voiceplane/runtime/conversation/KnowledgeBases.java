package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.client.KnowledgeSearch;
import dev.voiceplane.runtime.ops.RuntimeMetrics;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Gives a call whose model has a knowledge base its {@link Knowledge}, with the search's deadline. */
@ApplicationScoped
public class KnowledgeBases {

    private final KnowledgeSearch search;
    private final RuntimeMetrics metrics;
    private final long deadlineMillis;

    public KnowledgeBases(KnowledgeSearch search, RuntimeMetrics metrics,
            @ConfigProperty(name = "voice.runtime.deadline.knowledge") Duration deadline) {
        this.search = search;
        this.metrics = metrics;
        this.deadlineMillis = deadline.toMillis();
    }

    public Optional<Knowledge> of(CallPlan plan, Context context) {
        return plan.knowledgeBase() == null ? Optional.empty()
                : Optional.of(new Knowledge(search, plan, context, deadlineMillis, metrics));
    }
}
