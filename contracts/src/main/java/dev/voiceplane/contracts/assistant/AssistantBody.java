package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.validation.HttpUrl;
import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.List;

/**
 * An assistant as clients write it (docs/assistants-and-squads.md, "What is stored and returned", without the
 * returned-only fields): nothing is required at this level, unset fields stay unset. Ranges and enumerations: its
 * "Validation rules". A class rather than a record only because {@link AssistantOverrides} is the same fields plus one
 * and records cannot extend each other; an instance is never changed once read.
 */
@RegisterForReflection
@RealtimeVoice
public class AssistantBody {

    @Valid
    public Transcriber transcriber;

    @Valid
    public Model model;

    @Valid
    public Voice voice;

    @OneOf({"assistant-speaks-first", "assistant-waits-for-user"})
    public String firstMessageMode;

    public Boolean recordingEnabled;

    public Boolean hipaaEnabled;

    public List<@NotNull @OneOf({"status-update", "speech-update", "transcript", "hang", "function-call", "tool-calls",
            "metadata", "conversation-update", "model-output", "voice-input", "user-interrupted"}) String> clientMessages;

    public List<@NotNull @OneOf({"status-update", "transcript", "hang", "function-call", "tool-calls",
            "end-of-call-report", "conversation-update", "phone-call-control", "model-output", "voice-input",
            "speech-update", "user-interrupted"}) String>
            serverMessages;

    @DecimalMin("10")
    @DecimalMax("600")
    public BigDecimal silenceTimeoutSeconds;

    @DecimalMin("0")
    @DecimalMax("5")
    public BigDecimal responseDelaySeconds;

    @DecimalMin("0")
    @DecimalMax("3")
    public BigDecimal llmRequestDelaySeconds;

    @DecimalMin("1")
    @DecimalMax("10")
    public BigDecimal numWordsToInterruptAssistant;

    @DecimalMin("10")
    @DecimalMax("3600")
    public BigDecimal maxDurationSeconds;

    /** Today's form of {@code responseDelaySeconds} and more: when the assistant starts speaking after the caller. */
    @Valid
    public StartSpeakingPlan startSpeakingPlan;

    /** Today's form of {@code numWordsToInterruptAssistant} and more: when the caller's speech stops the assistant. */
    @Valid
    public StopSpeakingPlan stopSpeakingPlan;

    /** The caller's keypad as an input: the keys pressed become a caller turn (docs/voice-runtime.md "Keypad"). */
    @Valid
    public KeypadInputPlan keypadInputPlan;

    @OneOf({"off", "office"})
    public String backgroundSound;

    public Boolean backchannelingEnabled;

    @Size(max = 100)
    public String name;

    @Size(max = 1000)
    public String firstMessage;

    @Valid
    public VoicemailDetection voicemailDetection;

    @Size(max = 1000)
    public String voicemailMessage;

    @Size(max = 400)
    public String endCallMessage;

    public List<@NotNull String> endCallPhrases;

    /** Free-form: any JSON object, returned exactly as sent. */
    public ObjectNode metadata;

    @HttpUrl
    public String serverUrl;

    /** The customer's own webhook secret: write-only (never in a public answer, see {@link AssistantSecrets}). */
    public String serverUrlSecret;

    /**
     * Today's form of {@code serverUrl}/{@code serverUrlSecret} plus custom headers and a timeout: one value with
     * two spellings (assistant-service keeps them equal, see docs/api-reference.md "The server object").
     */
    @Valid
    public ToolServer server;

    @Valid
    public AnalysisPlan analysisPlan;
}
