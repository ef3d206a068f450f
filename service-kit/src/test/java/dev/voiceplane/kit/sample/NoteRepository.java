package dev.voiceplane.kit.sample;

import dev.voiceplane.kit.persistence.OrgScopedId;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class NoteRepository implements PanacheRepositoryBase<Note, OrgScopedId> {
}
