package dev.voiceplane.telephony.carrier;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Map;

/**
 * The Vonage documents this service writes: the NCCO (Call Control Object) actions of answer webhooks, dials and
 * transfers, and the bodies of the Voice and Applications APIs that carry them. Records written by Jackson, fields in
 * the order Vonage documents them and absent ones left out, so nothing a request carries lands in one unescaped.
 * Jackson writes them by reflection outside the REST layer, hence their registration (docs/native.md).
 */
@RegisterForReflection(targets = {VonageDocuments.Talk.class, VonageDocuments.Connect.class,
        VonageDocuments.WebSocket.class, VonageDocuments.Phone.class, VonageDocuments.Call.class,
        VonageDocuments.Transfer.class, VonageDocuments.Destination.class, VonageDocuments.Application.class,
        VonageDocuments.Capabilities.class, VonageDocuments.Voice.class, VonageDocuments.Webhooks.class,
        VonageDocuments.Webhook.class})
public final class VonageDocuments {

    /** The websocket's audio: linear PCM at 16 kHz, the one format the voice runtime takes. */
    public static final String AUDIO = "audio/l16;rate=16000";

    private VonageDocuments() {
    }

    /** One NCCO action. */
    public sealed interface Action permits Talk, Connect {
    }

    /** Says {@code text} to the caller. */
    @JsonPropertyOrder({"action", "text"})
    public record Talk(String text) implements Action {
        @JsonProperty
        public String action() {
            return "talk";
        }
    }

    /** Connects the call to an endpoint, as {@code from} (a msisdn; absent on answer NCCOs). */
    @JsonPropertyOrder({"action", "from", "endpoint"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Connect(String from, List<Endpoint> endpoint) implements Action {
        @JsonProperty
        public String action() {
            return "connect";
        }
    }

    /** Where a {@link Connect} goes. */
    public sealed interface Endpoint permits WebSocket, Phone {
    }

    /** The voice runtime's media stream, with the headers that name the call ({@code StreamParameters}). */
    @JsonPropertyOrder({"type", "uri", "content-type", "headers"})
    public record WebSocket(String uri, @JsonProperty("content-type") String contentType, Map<String, String> headers)
            implements Endpoint {

        public static WebSocket audio(String uri, Map<String, String> headers) {
            return new WebSocket(uri, AUDIO, headers);
        }

        @JsonProperty
        public String type() {
            return "websocket";
        }
    }

    /** A phone number, as a msisdn (E.164 without the {@code +}). */
    @JsonPropertyOrder({"type", "number"})
    public record Phone(String number) implements Endpoint {
        @JsonProperty
        public String type() {
            return "phone";
        }
    }

    /** {@code POST /v1/calls}: an outbound call whose NCCO connects it to the voice runtime. */
    @JsonPropertyOrder({"to", "from", "ncco", "event_url", "event_method", "machine_detection", "length_timer"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Call(List<Phone> to, Phone from, List<Action> ncco, @JsonProperty("event_url") List<String> eventUrl,
            @JsonProperty("event_method") String eventMethod,
            @JsonProperty("machine_detection") String machineDetection,
            @JsonProperty("length_timer") Integer lengthTimer) {
    }

    /** {@code PUT /v1/calls/{uuid}} with {@code action: transfer}: the leg moves to a new NCCO. */
    @JsonPropertyOrder({"action", "destination"})
    public record Transfer(Destination destination) {
        @JsonProperty
        public String action() {
            return "transfer";
        }

        public static Transfer to(List<Action> ncco) {
            return new Transfer(new Destination(ncco));
        }
    }

    /** A transfer's destination: an NCCO. */
    @JsonPropertyOrder({"type", "ncco"})
    public record Destination(List<Action> ncco) {
        @JsonProperty
        public String type() {
            return "ncco";
        }
    }

    /** {@code POST /v2/applications}: a Voice application whose callbacks are signed and come to this service. */
    public record Application(String name, Capabilities capabilities) {

        public static Application signedVoice(String name, String answerUrl, String eventUrl) {
            return new Application(name, new Capabilities(new Voice(
                    new Webhooks(new Webhook(answerUrl, "POST"), new Webhook(eventUrl, "POST")), true)));
        }
    }

    public record Capabilities(Voice voice) {
    }

    @JsonPropertyOrder({"webhooks", "signed_callbacks"})
    public record Voice(Webhooks webhooks, @JsonProperty("signed_callbacks") boolean signedCallbacks) {
    }

    @JsonPropertyOrder({"answer_url", "event_url"})
    public record Webhooks(@JsonProperty("answer_url") Webhook answerUrl, @JsonProperty("event_url") Webhook eventUrl) {
    }

    @JsonPropertyOrder({"address", "http_method"})
    public record Webhook(String address, @JsonProperty("http_method") String httpMethod) {
    }
}
