package dev.voiceplane.credential.repository;

import dev.voiceplane.credential.domain.Credential;
import dev.voiceplane.kit.persistence.OrgScopedId;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class CredentialRepository implements PanacheRepositoryBase<Credential, OrgScopedId> {

    public Optional<Credential> findOwned(String orgId, UUID id) {
        return findByIdOptional(new OrgScopedId(orgId, id));
    }

    /**
     * Serialises writers of one (organisation, id) until the transaction ends, so that two concurrent PUTs of a
     * new id do not both try to insert it.
     */
    public void lockKey(String orgId, UUID id) {
        getEntityManager()
                .createNativeQuery("select pg_advisory_xact_lock(hashtextextended(:key, 0))")
                .setParameter("key", "credential:" + orgId + ":" + id)
                .getSingleResult();
    }
}
