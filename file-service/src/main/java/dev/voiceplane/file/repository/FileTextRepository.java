package dev.voiceplane.file.repository;

import dev.voiceplane.file.domain.FileText;
import dev.voiceplane.kit.persistence.OrgScopedId;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class FileTextRepository implements PanacheRepositoryBase<FileText, OrgScopedId> {

    public Optional<FileText> findOwned(String orgId, UUID id) {
        return findByIdOptional(new OrgScopedId(orgId, id));
    }
}
