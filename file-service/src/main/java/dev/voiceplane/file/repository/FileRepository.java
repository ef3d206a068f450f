package dev.voiceplane.file.repository;

import dev.voiceplane.file.domain.StoredFile;
import dev.voiceplane.kit.persistence.OrgScopedRepository;
import jakarta.enterprise.context.ApplicationScoped;

/** Files, always looked up with the caller's organisation (the key is {@code (org_id, id)}). */
@ApplicationScoped
public class FileRepository implements OrgScopedRepository<StoredFile> {
}
