package dev.voiceplane.credential.repository;

import dev.voiceplane.credential.domain.Credential;
import dev.voiceplane.kit.persistence.OrgScopedRepository;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

@ApplicationScoped
public class CredentialRepository implements OrgScopedRepository<Credential> {

    @Override
    public RowMapper<Credential> rows() {
        return Credential.ROWS;
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
