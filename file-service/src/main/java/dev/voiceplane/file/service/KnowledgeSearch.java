package dev.voiceplane.file.service;

import dev.voiceplane.contracts.file.PassageSearch;
import dev.voiceplane.contracts.file.Passages;
import dev.voiceplane.file.repository.PassageRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;

/**
 * The knowledge-base search (docs/files.md): the best passages of an organisation's files for a caller's words.
 * Ids that are not UUIDs, or not files of the organisation, name nothing (the query is scoped to the organisation,
 * so another's file can never match).
 */
@ApplicationScoped
public class KnowledgeSearch {

    private final PassageRepository passages;

    public KnowledgeSearch(PassageRepository passages) {
        this.passages = passages;
    }

    public Passages search(String orgId, PassageSearch request) {
        Set<UUID> ids = new LinkedHashSet<>();
        for (String id : request.fileIds()) {
            try {
                ids.add(UUID.fromString(id));
            } catch (IllegalArgumentException notAnId) {
                // Names nothing, as in the lookup.
            }
        }
        if (ids.isEmpty() || request.query().isBlank()) {
            return new Passages(java.util.List.of());
        }
        return QuarkusTransaction.requiringNew().call(() -> new Passages(passages.search(orgId, ids, request.query(),
                request.topK())));
    }
}
