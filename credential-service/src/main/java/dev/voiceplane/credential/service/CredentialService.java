package dev.voiceplane.credential.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.credential.api.CredentialRequest;
import dev.voiceplane.contracts.credential.CredentialSecret;
import dev.voiceplane.contracts.credential.CredentialView;
import dev.voiceplane.credential.domain.Credential;
import dev.voiceplane.credential.repository.CredentialRepository;
import dev.voiceplane.kit.crypto.SecretBox;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.list.ListQuery;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Use cases of credentials, each scoped to the caller's organisation. Created at start-up so that a missing
 * or invalid encryption keyset stops the service before it takes traffic.
 */
@Startup
@ApplicationScoped
public class CredentialService {

    private static final TypeReference<Map<String, String>> SECRET_FIELDS = new TypeReference<>() {
    };

    /** The fields that are not secrets, as {@link CredentialRequest#fields()} wrote them. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    record Fields(String region, String service, String openAIEndpoint, List<String> models, String apiUrl,
            String userId, String groupId) {

        static final Fields NONE = new Fields(null, null, null, null, null, null, null);
    }

    private final CredentialRepository credentials;
    private final SecretBox secretBox;
    private final ObjectMapper json;

    public CredentialService(CredentialRepository credentials, SecretBox secretBox, ObjectMapper json) {
        this.credentials = credentials;
        this.secretBox = secretBox;
        this.json = json;
    }

    public CredentialView create(String orgId, CredentialRequest request) {
        requireValid(request);
        return QuarkusTransaction.requiringNew().call(() -> {
            Credential credential = new Credential();
            credential.stampCreated(orgId, null);
            fill(credential, request);
            credentials.persist(credential);
            return view(credential);
        });
    }

    /** Creates the credential with this id, or replaces the caller's own; {@code createdAt} survives a replace. */
    public CredentialView put(String orgId, UUID id, CredentialRequest request) {
        requireValid(request);
        return QuarkusTransaction.requiringNew().call(() -> {
            credentials.lockKey(orgId, id);
            Credential credential = credentials.findOwnedForChange(orgId, id).orElse(null);
            if (credential == null) {
                credential = new Credential();
                credential.stampCreated(orgId, id);
                fill(credential, request);
                credentials.persist(credential);
            } else {
                fill(credential, request);
                credential.touch();
            }
            return view(credential);
        });
    }

    public CredentialView get(String orgId, UUID id) {
        return view(owned(orgId, id));
    }

    public List<CredentialView> list(String orgId, ListParams params) {
        return list(orgId, params, Map.of());
    }

    /** A list with equality filters (the internal route's {@code provider}). */
    public List<CredentialView> list(String orgId, ListParams params, Map<String, ListQuery.EqualityColumn> filters) {
        return ListQuery.list(credentials, orgId, params, filters).stream().map(this::view).toList();
    }

    public CredentialView delete(String orgId, UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> {
            // The same lock as PUT: a delete racing a PUT or another delete of this id waits, then sees the outcome.
            credentials.lockKey(orgId, id);
            Credential credential = owned(orgId, id);
            credentials.delete(credential);
            return view(credential);
        });
    }

    public CredentialSecret secret(String orgId, UUID id) {
        Credential credential = owned(orgId, id);
        Map<String, String> secrets = unseal(credential);
        // An azure-openai key written in the SDK's form is the provider's key like any other.
        String apiKey = secrets.containsKey("openAIKey") ? secrets.get("openAIKey") : secrets.get("apiKey");
        return new CredentialSecret(credential.id.toString(), credential.provider, credential.accountSid,
                apiKey, secrets.get("apiSecret"), secrets.get("authToken"), secrets.get("signatureSecret"),
                secrets.get("ocpApimSubscriptionKey"));
    }

    /** The credential as clients and other services see it (the contract's record): never a secret field. */
    CredentialView view(Credential credential) {
        Fields fields = fields(credential);
        return new CredentialView(credential.id.toString(), credential.orgId, credential.provider, credential.name,
                credential.accountSid, fields.region(), fields.service(), fields.openAIEndpoint(), fields.models(),
                fields.apiUrl(), fields.userId(), fields.groupId(), credential.createdAt, credential.updatedAt);
    }

    private Fields fields(Credential credential) {
        if (credential.fields == null) {
            return Fields.NONE;
        }
        try {
            return json.readValue(credential.fields, Fields.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a credential's fields are not the JSON they were written as", e);
        }
    }

    private Credential owned(String orgId, UUID id) {
        return credentials.requireOwned(orgId, id, "Credential");
    }

    private static void requireValid(CredentialRequest request) {
        List<String> problems = request.problems();
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
    }

    private void fill(Credential credential, CredentialRequest request) {
        credential.provider = request.provider();
        credential.name = request.name();
        credential.accountSid = request.accountSid();
        Map<String, Object> fields = request.fields();
        credential.fields = fields.isEmpty() ? null : writeJson(fields);
        credential.secret = seal(credential, request.secrets());
    }

    private String writeJson(Map<String, Object> fields) {
        try {
            return json.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a credential's fields cannot be serialised", e);
        }
    }

    private byte[] seal(Credential credential, Map<String, String> secrets) {
        try {
            return secretBox.seal(json.writeValueAsBytes(secrets), credential.sealingContext());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("secret fields cannot be serialised", e);
        }
    }

    private Map<String, String> unseal(Credential credential) {
        try {
            return json.readValue(secretBox.open(credential.secret, credential.sealingContext()), SECRET_FIELDS);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a sealed secret is not the JSON it was written as", e);
        }
    }
}
