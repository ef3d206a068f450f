package dev.voiceplane.telephony.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.json.StrictReader;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.list.ListQuery;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.telephony.api.PhoneNumberPatch;
import dev.voiceplane.telephony.api.PhoneNumberRequest;
import dev.voiceplane.telephony.api.PhoneNumberView;
import dev.voiceplane.telephony.carrier.CarrierFailure;
import dev.voiceplane.telephony.client.AssistantDirectory;
import dev.voiceplane.telephony.client.CredentialDirectory;
import dev.voiceplane.contracts.credential.CredentialSecret;
import dev.voiceplane.telephony.domain.Carrier;
import dev.voiceplane.telephony.domain.PhoneNumber;
import dev.voiceplane.telephony.repository.PhoneNumberRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Use cases of phone numbers, scoped to the caller's organisation. Everything remote (assistant-service,
 * credential-service, the carrier) is asked before the transaction opens, so no connection or lock is held while
 * another system answers, and a failed check writes nothing. Created at start-up so that a missing encryption
 * keyset stops the service before it takes traffic.
 */
@Startup
@ApplicationScoped
public class PhoneNumberService {

    private static final Logger LOG = Logger.getLogger(PhoneNumberService.class);
    private static final String UNIQUE_VIOLATION = "23505";

    private final PhoneNumberRepository numbers;
    private final Secrets secrets;
    private final AssistantDirectory assistants;
    private final CredentialDirectory credentials;
    private final NumberProvisioning provisioning;
    private final StrictReader reader;

    public PhoneNumberService(PhoneNumberRepository numbers, Secrets secrets, AssistantDirectory assistants,
            CredentialDirectory credentials, NumberProvisioning provisioning, StrictReader reader) {
        this.numbers = numbers;
        this.secrets = secrets;
        this.assistants = assistants;
        this.credentials = credentials;
        this.provisioning = provisioning;
        this.reader = reader;
    }

    /**
     * Imports a number: {@code route} is the carrier of an import path, or null for {@code POST /phone-number}.
     * Order: the body, the number not yet taken, the assistant, the vonage credential, the carrier; then one
     * transaction inserts the row, where the unique index settles a race between two imports of one number.
     */
    public PhoneNumberView create(String orgId, Carrier route, PhoneNumberRequest body) {
        List<String> problems = body.problems(route);
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
        Carrier carrier = body.carrier(route);
        String number = body.number();
        numbers.findByNumber(number).ifPresent(existing -> {
            throw duplicate(orgId, number, existing.orgId);
        });
        requireAssistant(orgId, body.assistantId());
        CredentialSecret vonage = carrier == Carrier.VONAGE ? requireVonageCredential(orgId, body.credentialId()) : null;
        NumberProvisioning.Provisioned provisioned;
        try {
            provisioned = carrier == Carrier.TWILIO
                    ? provisioning.twilio(body.twilioAccountSid(), body.twilioAuthToken(), number)
                    : provisioning.vonage(vonage, number);
        } catch (CarrierFailure failure) {
            throw carrierProblem(failure);
        }
        try {
            return QuarkusTransaction.requiringNew().call(() -> {
                PhoneNumber row = new PhoneNumber();
                row.stampCreated(orgId, null);
                row.provider = route != null ? carrier.id() : body.provider();
                row.carrier = carrier.id();
                row.number = number;
                row.name = body.name();
                row.assistantId = body.assistantId();
                row.serverUrl = body.effectiveServerUrl();
                row.serverUrlSecret = secrets.seal(row, Secrets.SERVER_URL_SECRET, body.effectiveServerUrlSecret());
                setServerObject(row, body.server());
                row.carrierAccount = secrets.account(row, provisioned.carrierAccount());
                row.carrierNumberId = provisioned.carrierNumberId();
                row.previousVoiceUrl = provisioned.previousVoiceUrl();
                row.previousStatusCallback = provisioned.previousStatusCallback();
                row.vonageApplicationId = provisioned.vonageApplicationId();
                row.vonagePrivateKey = secrets.seal(row, Secrets.VONAGE_PRIVATE_KEY, provisioned.vonagePrivateKey());
                row.previousVonageApplicationId = provisioned.previousVonageApplicationId();
                row.twilioAuthToken = secrets.seal(row, Secrets.AUTH_TOKEN, body.twilioAuthToken());
                row.credentialId = body.credentialId();
                numbers.persist(row);
                numbers.flush();
                return view(row);
            });
        } catch (RuntimeException e) {
            if (isUniqueViolation(e)) {
                // Another import of this number committed first. Its carrier configuration is the same as ours.
                throw numbers.findByNumber(number).map(winner -> duplicate(orgId, number, winner.orgId))
                        .orElseGet(() -> ApiException.invalid(number + " was being imported concurrently; try again"));
            }
            throw e;
        }
    }

    public PhoneNumberView get(String orgId, UUID id) {
        return view(owned(orgId, id));
    }

    public List<PhoneNumberView> list(String orgId, ListParams params) {
        return ListQuery.list(numbers, orgId, params).stream().map(this::view).toList();
    }

    /** Fields present replace, {@code null} clears, absent fields stay; a new assistant is checked first. */
    public PhoneNumberView update(String orgId, UUID id, ObjectNode patch) {
        PhoneNumber current = owned(orgId, id);
        PhoneNumberPatch fields = reader.read(patch, PhoneNumberPatch.class);
        requireSameProvider(current, patch);
        List<String> conflicts = dev.voiceplane.contracts.assistant.ServerForms.conflicts("", patch);
        if (!conflicts.isEmpty()) {
            throw ApiException.invalid(conflicts);
        }
        if (patch.hasNonNull("assistantId")) {
            requireAssistant(orgId, fields.assistantId());
        }
        return QuarkusTransaction.requiringNew().call(() -> {
            PhoneNumber row = numbers.findOwnedForChange(orgId, id).orElseThrow(PhoneNumberService::notFound);
            if (patch.has("name")) {
                row.name = fields.name();
            }
            if (patch.has("assistantId")) {
                row.assistantId = fields.assistantId();
            }
            if (patch.has("server")) {
                // The object replaces the server as a whole; serverUrl/serverUrlSecret given with it agree with it.
                row.serverUrl = fields.server() == null ? null : fields.server().url();
                row.serverUrlSecret = secrets.seal(row, Secrets.SERVER_URL_SECRET,
                        fields.server() == null ? null : fields.server().secret());
                setServerObject(row, fields.server());
            }
            if (patch.has("serverUrl")) {
                row.serverUrl = fields.serverUrl();
                if (fields.serverUrl() == null) {
                    setServerObject(row, null);
                }
            }
            if (patch.has("serverUrlSecret")) {
                row.serverUrlSecret = secrets.seal(row, Secrets.SERVER_URL_SECRET, fields.serverUrlSecret());
            }
            if (row.serverUrlSecret != null && row.serverUrl == null) {
                throw ApiException.invalid("serverUrlSecret needs a serverUrl");
            }
            row.touch();
            return view(row);
        });
    }

    /**
     * Releases the carrier configuration, then deletes the row. A carrier that refuses (credentials revoked, the
     * number already gone from the account) does not keep the number here: it is logged and the delete goes on.
     * A carrier that cannot be reached is a 503 and nothing is deleted, so the release can be tried again.
     */
    public PhoneNumberView delete(String orgId, UUID id) {
        PhoneNumber row = owned(orgId, id);
        try {
            if (row.carrier() == Carrier.TWILIO) {
                provisioning.releaseTwilio(row, secrets.open(row, Secrets.AUTH_TOKEN, row.twilioAuthToken));
            } else {
                Optional<CredentialSecret> credential = credentials.secret(orgId, row.credentialId);
                if (credential.isPresent()) {
                    provisioning.releaseVonage(row, credential.get());
                } else {
                    LOG.warnf("phone number %s: its vonage credential is gone, the carrier configuration stays", id);
                }
            }
        } catch (CarrierFailure failure) {
            if (!failure.rejected()) {
                throw ApiException.unavailable(failure.getMessage()
                        + "; the number was not deleted, try again later");
            }
            LOG.warnf("phone number %s: the carrier refused to release it (%s); deleting it here anyway", id,
                    failure.getMessage());
        }
        return QuarkusTransaction.requiringNew().call(() -> {
            PhoneNumber locked = numbers.findOwnedForChange(orgId, id).orElseThrow(PhoneNumberService::notFound);
            PhoneNumberView deleted = view(locked);
            numbers.delete(locked);
            return deleted;
        });
    }

    /** The configuration call-service reads (no carrier secret). */
    public PhoneNumberConfiguration configuration(String orgId, UUID id) {
        return configuration(owned(orgId, id));
    }

    public PhoneNumberConfiguration configuration(PhoneNumber row) {
        return new PhoneNumberConfiguration(row.id.toString(), row.orgId, row.provider, row.carrier, row.number,
                row.name, row.assistantId, row.serverUrl,
                secrets.open(row, Secrets.SERVER_URL_SECRET, row.serverUrlSecret),
                row.carrier() == Carrier.TWILIO ? row.carrierAccount : null, row.credentialId,
                headers(row), row.serverTimeoutSeconds);
    }

    private void setServerObject(PhoneNumber row, dev.voiceplane.contracts.assistant.ToolServer server) {
        row.serverObject = server != null;
        row.serverHeaders = server == null || server.headers() == null ? null : server.headers().toString();
        row.serverTimeoutSeconds = server == null ? null : server.timeoutSeconds();
    }

    /**
     * Today's SDKs send the number's {@code provider} in a PATCH (their update bodies are told apart by it): it is
     * accepted when it names the number's carrier, and a 400 otherwise (a number cannot move to another carrier).
     */
    private static void requireSameProvider(PhoneNumber row, ObjectNode patch) {
        if (!patch.has("provider")) {
            return;
        }
        com.fasterxml.jackson.databind.JsonNode given = patch.get("provider");
        if (!given.isTextual() || !Carrier.accepts(given.asText()) || Carrier.of(given.asText()) != row.carrier()) {
            throw ApiException.invalid("provider must be the number's own (" + row.provider
                    + "): a number cannot move to another provider");
        }
    }

    private com.fasterxml.jackson.databind.node.ObjectNode headers(PhoneNumber row) {
        if (row.serverHeaders == null) {
            return null;
        }
        try {
            return (com.fasterxml.jackson.databind.node.ObjectNode) MAPPER.readTree(row.serverHeaders);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("stored server headers are not the JSON object they were written as", e);
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER =
            new com.fasterxml.jackson.databind.ObjectMapper();

    PhoneNumber owned(String orgId, UUID id) {
        return numbers.findOwned(orgId, id).orElseThrow(PhoneNumberService::notFound);
    }

    private void requireAssistant(String orgId, String assistantId) {
        if (assistantId == null) {
            return;
        }
        if (Ids.parse(assistantId).isEmpty() || !assistants.exists(orgId, assistantId)) {
            throw ApiException.invalid("assistantId " + assistantId + " is not an assistant of this organisation");
        }
    }

    CredentialSecret requireVonageCredential(String orgId, String credentialId) {
        Optional<CredentialSecret> credential = Ids.parse(credentialId).isEmpty()
                ? Optional.empty()
                : credentials.secret(orgId, credentialId);
        if (credential.isEmpty() || !"vonage".equals(dev.voiceplane.contracts.catalog.Providers.canonical(credential.get().provider()))) {
            throw ApiException.invalid("credentialId " + credentialId + " is not a vonage credential of this organisation");
        }
        return credential.get();
    }

    private PhoneNumberView view(PhoneNumber row) {
        PhoneNumberView.ServerView server = row.serverObject && row.serverUrl != null
                ? new PhoneNumberView.ServerView(row.serverUrl, headers(row), row.serverTimeoutSeconds)
                : null;
        return new PhoneNumberView(row.id.toString(), row.orgId, row.provider, row.number, row.name, row.assistantId,
                row.serverUrl, server, row.carrier() == Carrier.TWILIO ? row.carrierAccount : null, row.credentialId, row.createdAt,
                row.updatedAt);
    }

    private static ApiException duplicate(String orgId, String number, String holder) {
        return holder.equals(orgId)
                ? ApiException.invalid("number " + number + " is already imported in this organisation")
                : ApiException.invalid("number " + number + " is already in use by another organisation");
    }

    private static ApiException carrierProblem(CarrierFailure failure) {
        return failure.rejected()
                ? ApiException.invalid(failure.getMessage() + "; nothing was imported")
                : ApiException.unavailable(failure.getMessage() + "; nothing was imported, try again later");
    }

    private static boolean isUniqueViolation(Throwable e) {
        for (Throwable cause = e; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    static ApiException notFound() {
        return ApiException.notFound("Phone number");
    }
}
