package dev.voiceplane.runtime.provider;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.conversation.CallPlan;
import io.vertx.core.Context;
import io.vertx.core.Future;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The providers this runtime speaks: every {@link TranscriberProvider}, {@link ModelProvider} and
 * {@link VoiceProvider} bean (one per vendor, in {@code provider/<vendor>/}), found by the values they serve. The one
 * place where a call's plan becomes its providers, for admission and for squad hand-offs alike: the plan is checked
 * ({@link #unsupported}), the organisation's credentials are read once, when the stage is opened, and never kept.
 *
 * <p>Values the API accepts that no bean serves are refused with the reason {@link #NOT_RUN} gives (docs/voice-runtime.md,
 * "Providers"); a test ties that list, the beans and the API's catalogue together.
 */
@ApplicationScoped
public class ProviderDirectory {

    /** Stage names, as metrics, logs and transcript lines say them. */
    public static final String TRANSCRIBER = "transcriber";
    public static final String MODEL = "model";
    public static final String VOICE = "voice";

    /**
     * Values the API accepts for a stage that this runtime does not run, with the reason given to a call that names
     * one (by stage: {@code transcriber}, {@code model}, {@code voice}).
     */
    public static final Map<String, Map<String, String>> NOT_RUN = Map.of(
            TRANSCRIBER, Map.ofEntries(
                    Map.entry("azure", "Azure Speech streams recognition only through its SDK's own WebSocket"
                            + " protocol, which Microsoft does not publish; its documented REST API for short audio"
                            + " transcribes one file of at most 60 s, with no words before the end"),
                    Map.entry("google", "the hosted platform's google transcriber is a Gemini model asked by a prompt"
                            + " it does not publish, and Google's Speech-to-Text streams only over gRPC, which this"
                            + " runtime does not speak"),
                    Map.entry("talkscriber", "Talkscriber's streaming protocol is not public")),
            MODEL, Map.ofEntries(
                    Map.entry("anthropic-bedrock", "Bedrock needs AWS Signature V4 and its binary event-stream framing,"
                            + " which this runtime does not speak; use anthropic with an Anthropic key"),
                    Map.entry("inflection-ai", "Inflection's API is not built in this runtime"),
                    Map.entry("minimax", "MiniMax's chat API is not built in this runtime")),
            VOICE, Map.ofEntries(
                    Map.entry("hume", "Hume's voice API is not built in this runtime"),
                    Map.entry("inworld", "Inworld's voice API is not built in this runtime"),
                    Map.entry("minimax", "MiniMax's voice API is not built in this runtime"),
                    Map.entry("neets", "Neets.ai shut its service down"),
                    Map.entry("neuphonic", "Neuphonic's voice API is not built in this runtime"),
                    Map.entry("playht", "PlayHT shut its service down at the end of 2025"),
                    Map.entry("sesame", "Sesame offers no public speech API"),
                    Map.entry("smallest-ai", "Smallest.ai's voice API is not built in this runtime"),
                    Map.entry("tavus", "Tavus makes video replicas, not a voice a call can speak with"),
                    Map.entry("vapi", "the hosted platform's own voices run only on its servers"),
                    Map.entry("wellsaid", "WellSaid's voice API is not built in this runtime")));

    private record Served<P>(P provider, ProviderName name) {
    }

    private final Map<String, Served<TranscriberProvider>> transcribers;
    private final Map<String, Served<ModelProvider>> models;
    private final Map<String, Served<VoiceProvider>> voices;
    private final Map<String, Served<RealtimeProvider>> realtime;
    private final Credentials credentials;

    public ProviderDirectory(Instance<TranscriberProvider> transcribers, Instance<ModelProvider> models,
            Instance<VoiceProvider> voices, Instance<RealtimeProvider> realtime, Credentials credentials) {
        this.transcribers = index(transcribers, TranscriberProvider::names);
        this.models = index(models, ModelProvider::names);
        this.voices = index(voices, VoiceProvider::names);
        this.realtime = index(realtime, RealtimeProvider::names);
        this.credentials = credentials;
    }

    /**
     * The realtime provider running the plan's model, if the model is a speech-to-speech one (docs/voice-runtime.md,
     * "Realtime models"): the call then runs on one socket, without a transcriber or a voice.
     */
    private Optional<Served<RealtimeProvider>> realtime(CallPlan plan) {
        ModelSettings model = plan.model();
        if (model == null || model.provider() == null) {
            return Optional.empty();
        }
        Served<RealtimeProvider> served = realtime.get(model.provider());
        return served != null && served.provider().serves(model) ? Optional.of(served) : Optional.empty();
    }

    /** Whether the plan's model is a speech-to-speech model this runtime runs. */
    public boolean isRealtime(CallPlan plan) {
        return realtime(plan).isPresent();
    }

    private static <P> Map<String, Served<P>> index(Iterable<P> beans, Function<P, List<ProviderName>> names) {
        Map<String, Served<P>> byName = new TreeMap<>();
        for (P bean : beans) {
            for (ProviderName name : names.apply(bean)) {
                Served<P> earlier = byName.putIfAbsent(name.value(), new Served<>(bean, name));
                if (earlier != null) {
                    throw new IllegalStateException("two providers serve " + name.value() + ": "
                            + earlier.provider().getClass().getSimpleName() + " and " + bean.getClass().getSimpleName());
                }
            }
        }
        return Collections.unmodifiableMap(byName);
    }

    /** The provider values each stage runs, by stage. */
    public Map<String, List<String>> served() {
        return Map.of(TRANSCRIBER, List.copyOf(transcribers.keySet()), MODEL, List.copyOf(models.keySet()),
                VOICE, List.copyOf(voices.keySet()));
    }

    /** The model provider values whose realtime models this runtime runs. */
    public List<String> realtimeServed() {
        return List.copyOf(realtime.keySet());
    }

    /** Checks that every stage of the plan is run here with the settings it has; the failure names the first not. */
    public Optional<ProviderFailure> unsupported(CallPlan plan) {
        Optional<Served<RealtimeProvider>> speechToSpeech = realtime(plan);
        if (speechToSpeech.isPresent()) {
            return speechToSpeech.get().provider().refused(plan.model(), plan.voice()).map(why -> new ProviderFailure(
                    MODEL, plan.model().provider(), "unsupported", "model " + plan.model().model() + " " + why));
        }
        TranscriberSettings transcriber = plan.transcriber();
        Optional<ProviderFailure> problem = check(TRANSCRIBER, transcriber == null ? null : transcriber.provider(),
                transcribers, served -> served.provider().refused(transcriber));
        if (problem.isPresent()) {
            return problem;
        }
        ModelSettings model = plan.model();
        problem = check(MODEL, model == null ? null : model.provider(), models,
                served -> served.provider().refused(model));
        if (problem.isPresent()) {
            return problem;
        }
        VoiceSettings voice = plan.voice();
        return check(VOICE, voice == null ? null : voice.provider(), voices,
                served -> served.provider().refused(voice));
    }

    private static <P> Optional<ProviderFailure> check(String stage, String provider, Map<String, Served<P>> served,
            Function<Served<P>, Optional<String>> refused) {
        if (provider == null) {
            return Optional.of(new ProviderFailure(stage, "assistant", "unsupported", "the assistant has no " + stage));
        }
        Served<P> found = served.get(provider);
        if (found == null) {
            String reason = NOT_RUN.getOrDefault(stage, Map.of()).get(provider);
            return Optional.of(new ProviderFailure(stage, provider, "unsupported", stage + " provider " + provider
                    + " is not supported by this runtime" + (reason == null ? "" : ": " + reason)));
        }
        return refused.apply(found).map(why -> new ProviderFailure(stage, provider, "unsupported",
                stage + " provider " + provider + " " + why));
    }

    /**
     * Reads the organisation's credentials for the plan's three stages and builds them (blocking: call it off the
     * call's context). Fails with {@link ProviderFailure} when a stage is not run here or a credential is missing.
     * {@code fellBack} hears each model of the fallback chain that failed and was followed by the next.
     */
    public ProviderSet openBlocking(CallPlan plan, Context context, AudioFormat format,
            BiConsumer<FallbackModel.Choice, ProviderError> fellBack) {
        Optional<ProviderFailure> problem = unsupported(plan);
        if (problem.isPresent()) {
            throw problem.get();
        }
        Optional<Served<RealtimeProvider>> speechToSpeech = realtime(plan);
        if (speechToSpeech.isPresent()) {
            Credential key = credential(plan.orgId(), MODEL, speechToSpeech.get().name());
            return ProviderSet.realtime(speechToSpeech.get().provider().open(context, plan.model(), key, format));
        }
        Served<TranscriberProvider> transcriber = transcribers.get(plan.transcriber().provider());
        Served<ModelProvider> model = models.get(plan.model().provider());
        Served<VoiceProvider> voice = voices.get(plan.voice().provider());
        Credential transcriberKey = credential(plan.orgId(), TRANSCRIBER, transcriber.name());
        Credential modelKey = credential(plan.orgId(), MODEL, model.name());
        Credential voiceKey = credential(plan.orgId(), VOICE, voice.name());
        TranscriberSettings transcriberSettings = plan.transcriber();
        return new ProviderSet(
                listener -> transcriber.provider().open(context, transcriberSettings, transcriberKey, format, listener),
                FallbackModel.of(plan.model(), model.provider().open(plan.model(), modelKey), fellBack),
                voice.provider().open(plan.voice(), voiceKey, format));
    }

    /** {@link #openBlocking} off the call's context; the answer comes back on it. */
    public Future<ProviderSet> open(CallPlan plan, Context context, AudioFormat format,
            BiConsumer<FallbackModel.Choice, ProviderError> fellBack) {
        return context.executeBlocking(() -> openBlocking(plan, context, format, fellBack), false);
    }

    private Credential credential(String orgId, String stage, ProviderName name) {
        Optional<Credential> found = credentials.find(orgId, name.credential());
        if (found.isEmpty() && !name.keyOptional()) {
            throw new ProviderFailure(stage, name.value(), "no-key", "the organisation has no " + name.credential()
                    + " credential for the " + stage + " provider " + name.value());
        }
        return found.orElse(Credential.NONE);
    }
}
