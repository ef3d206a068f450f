package dev.voiceplane.telephony.carrier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Vonage as this service uses it. Importing a number: check the account owns it ({@code GET /account/numbers}),
 * create a Voice application whose answer and event webhooks point at the platform with signed callbacks on
 * ({@code POST /v2/applications}, Vonage generates its key pair), and link the number to it
 * ({@code POST /number/update}). Deleting reverses both. Calls use the application's private key (RS256 JWT).
 */
@ApplicationScoped
public class VonageCarrier {

    /** A number as the account holds it: Vonage's msisdn (no {@code +}), its country and current application. */
    public record VonageNumber(String msisdn, String country, String applicationId) {
    }

    /** A Voice application created for a number, with the private key Vonage generated for it. */
    public record VonageApplication(String id, String privateKey) {
        @Override
        public String toString() {
            return "VonageApplication[id=" + id + "]";
        }
    }

    private final VonageRestApi numbers;
    private final VonageApi api;
    private final ObjectMapper json;

    public VonageCarrier(@RestClient VonageRestApi numbers, @RestClient VonageApi api, ObjectMapper json) {
        this.numbers = numbers;
        this.api = api;
        this.json = json;
    }

    public VonageNumber find(String apiKey, String apiSecret, String e164) {
        String msisdn = msisdn(e164);
        JsonNode answer = call(() -> numbers.ownedNumbers(apiKey, apiSecret, msisdn, 0));
        for (JsonNode candidate : answer.path("numbers")) {
            if (msisdn.equals(candidate.path("msisdn").asText())) {
                JsonNode app = candidate.get("app_id");
                return new VonageNumber(msisdn, candidate.path("country").asText(),
                        app == null || app.isNull() || app.asText().isEmpty() ? null : app.asText());
            }
        }
        // Not the API key in the message: it is answered to the client and logged.
        throw CarrierFailure.rejected("the vonage account of the credential does not own the number " + e164, 404);
    }

    public VonageApplication createApplication(String apiKey, String apiSecret, String name, String answerUrl,
            String eventUrl) {
        String application = write(VonageDocuments.Application.signedVoice(name, answerUrl, eventUrl));
        JsonNode answer = call(() -> api.createApplication(TwilioCarrier.basic(apiKey, apiSecret), application));
        String id = answer.path("id").asText("");
        String privateKey = answer.path("keys").path("private_key").asText("");
        if (id.isEmpty()) {
            throw CarrierFailure.unavailable("vonage created an application without an id");
        }
        return new VonageApplication(id, privateKey.isEmpty() ? null : privateKey);
    }

    public void deleteApplication(String apiKey, String apiSecret, String applicationId) {
        call(() -> api.deleteApplication(TwilioCarrier.basic(apiKey, apiSecret), applicationId));
    }

    /** Links the number to an application ({@code applicationId} null or empty unlinks it). */
    public void link(String apiKey, String apiSecret, VonageNumber number, String applicationId) {
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        form.add("api_key", apiKey);
        form.add("api_secret", apiSecret);
        form.add("country", number.country());
        form.add("msisdn", number.msisdn());
        form.add("app_id", applicationId == null ? "" : applicationId);
        JsonNode answer = call(() -> numbers.updateNumber(form));
        String code = answer.path("error-code").asText("200");
        if (!code.equals("200")) {
            throw CarrierFailure.rejected("vonage refused: " + answer.path("error-code-label").asText(code), 200);
        }
    }

    /** {@code POST /v1/calls}; the answer's {@code uuid} is the carrier call id. */
    public JsonNode createCall(String applicationId, String privateKey, VonageDocuments.Call call) {
        String bearer = "Bearer " + applicationJwt(applicationId, privateKey, Instant.now());
        String body = write(call);
        return call(() -> api.createCall(bearer, body));
    }

    public void hangUp(String applicationId, String privateKey, String uuid) {
        String bearer = "Bearer " + applicationJwt(applicationId, privateKey, Instant.now());
        call(() -> api.updateCall(bearer, uuid, "{\"action\":\"hangup\"}"));
    }

    /**
     * Transfers a live call leg to a new NCCO that connects it to {@code number} from {@code from} (both E.164):
     * {@code PUT /v1/calls/{uuid}} with {@code action: transfer}. The leg leaves its websocket for the phone.
     */
    public void transfer(String applicationId, String privateKey, String uuid, String from, String number) {
        String transfer = write(VonageDocuments.Transfer.to(List.of(new VonageDocuments.Connect(msisdn(from),
                List.of(new VonageDocuments.Phone(msisdn(number)))))));
        String bearer = "Bearer " + applicationJwt(applicationId, privateKey, Instant.now());
        call(() -> api.updateCall(bearer, uuid, transfer));
    }

    private String write(Object document) {
        try {
            return json.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a document of records is always written", e);
        }
    }

    /** Vonage's numbers are E.164 without the {@code +}. */
    public static String msisdn(String e164) {
        return e164.startsWith("+") ? e164.substring(1) : e164;
    }

    /** The JWT the Voice API takes: RS256 with the application's private key, {@code application_id}, iat, jti. */
    static String applicationJwt(String applicationId, String privateKeyPem, Instant now) {
        if (privateKeyPem == null || privateKeyPem.isBlank()) {
            throw CarrierFailure.rejected("the vonage application of this number has no private key", 0);
        }
        Base64.Encoder base64url = Base64.getUrlEncoder().withoutPadding();
        String header = base64url.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        long iat = now.getEpochSecond();
        String claims = base64url.encodeToString(("{\"application_id\":\"" + applicationId + "\",\"iat\":" + iat
                + ",\"exp\":" + (iat + 300) + ",\"jti\":\"" + UUID.randomUUID() + "\"}").getBytes(StandardCharsets.UTF_8));
        try {
            String pem = privateKeyPem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
            PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key);
            rsa.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
            return header + "." + claims + "." + base64url.encodeToString(rsa.sign());
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw CarrierFailure.rejected("the vonage application's private key is not a PKCS#8 RSA key", 0);
        }
    }

    private JsonNode call(Supplier<Response> request) {
        return CarrierResponses.read(json, "vonage", request,
                error -> firstText(error, "title", "error_title", "error-code-label", "detail"));
    }

    private static String firstText(JsonNode node, String... fields) {
        for (String field : fields) {
            String value = node.path(field).asText("");
            if (!value.isEmpty()) {
                return value;
            }
        }
        return "";
    }
}
