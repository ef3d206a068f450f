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
        return ListQuery.list(credentials, orgId, params, filters).stream().map(CredentialService::view).toList();
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
        return new CredentialSecret(credential.id.toString(), credential.provider, credential.accountSid,
                secrets.get("apiKey"), secrets.get("apiSecret"), secrets.get("authToken"),
                secrets.get("signatureSecret"));
    }

    /** The credential as clients and other services see it (the contract's record): never a secret field. */
    static CredentialView view(Credential credential) {
        return new CredentialView(credential.id.toString(), credential.orgId, credential.provider, credential.name,
                credential.accountSid, credential.createdAt, credential.updatedAt);
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
        credential.secret = seal(credential, request.secrets());
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
