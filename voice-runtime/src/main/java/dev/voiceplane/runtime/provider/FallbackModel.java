package dev.voiceplane.runtime.provider;

import java.util.List;
import java.util.function.BiConsumer;

/**
 * A model with fallbacks: each request goes to the first choice, and to the next when one fails before it has said
 * anything (no text, no tool call); a failure after that is the caller's to handle (it keeps what was said). The
 * choices may be models of one provider ({@code model.fallbackModels}) or of different providers.
 */
public final class FallbackModel implements LanguageModel {

    /** One model to ask: the provider's model and the model id sent to it. */
    public record Choice(String provider, LanguageModel model, String modelId) {
    }

    private final List<Choice> choices;
    private final BiConsumer<Choice, ProviderError> fellBack;

    /** {@code fellBack} hears each choice that failed and was followed by the next (metrics, logs). */
    public FallbackModel(List<Choice> choices, BiConsumer<Choice, ProviderError> fellBack) {
        if (choices.isEmpty()) {
            throw new IllegalArgumentException("a fallback chain needs a model");
        }
        this.choices = List.copyOf(choices);
        this.fellBack = fellBack;
    }

    /**
     * The assistant's model with its {@code model.fallbackModels} (ids of the same provider), in that order: the model
     * itself when it has none.
     */
    public static LanguageModel of(ModelSettings settings, LanguageModel model,
            BiConsumer<Choice, ProviderError> fellBack) {
        if (settings.fallbackModels().isEmpty()) {
            return model;
        }
        List<Choice> choices = new java.util.ArrayList<>();
        choices.add(new Choice(settings.provider(), model, settings.model()));
        for (String fallback : settings.fallbackModels()) {
            choices.add(new Choice(settings.provider(), model, fallback));
        }
        return new FallbackModel(choices, fellBack);
    }

    @Override
    public Runnable stream(ChatRequest request, Listener listener) {
        Attempt attempt = new Attempt(request, listener);
        attempt.next();
        return attempt::cancel;
    }

    private final class Attempt implements Listener {
        private final ChatRequest request;
        private final Listener listener;
        private int index = -1;
        private boolean answered;
        private boolean cancelled;
        private Runnable cancelCurrent = () -> { };

        Attempt(ChatRequest request, Listener listener) {
            this.request = request;
            this.listener = listener;
        }

        void next() {
            index++;
            Choice choice = choices.get(index);
            cancelCurrent = choice.model().stream(request.withModel(choice.modelId()), this);
        }

        void cancel() {
            cancelled = true;
            cancelCurrent.run();
        }

        @Override
        public void text(String delta) {
            if (!cancelled) {
                answered = true;
                listener.text(delta);
            }
        }

        @Override
        public void toolCalls(List<ToolCall> calls) {
            if (!cancelled) {
                answered = true;
                listener.toolCalls(calls);
            }
        }

        @Override
        public void done(long promptTokens, long completionTokens) {
            done(ModelUsage.of(promptTokens, completionTokens));
        }

        /** The tokens are the choice's that answered: its provider and its model id go with them. */
        @Override
        public void done(ModelUsage usage) {
            if (!cancelled) {
                Choice choice = choices.get(index);
                listener.done(usage.from(choice.provider(), choice.modelId()));
            }
        }

        @Override
        public void failed(ProviderError error) {
            if (cancelled) {
                return;
            }
            if (!answered && index + 1 < choices.size()) {
                fellBack.accept(choices.get(index), error);
                next();
                return;
            }
            listener.failed(error);
        }
    }
}
