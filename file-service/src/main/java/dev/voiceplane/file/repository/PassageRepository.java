package dev.voiceplane.file.repository;

import dev.voiceplane.contracts.file.Passages.Passage;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The passages of files' texts ({@code file_passages}) and their full-text search, always within one organisation.
 */
@ApplicationScoped
public class PassageRepository {

    /**
     * The caller's words as an OR of their lexemes: {@code plainto_tsquery} normalises them as the passages were
     * (english: stemmed, stop words dropped) but joins them with AND, and a caller's question rarely has every one of
     * its words in the passage that answers it. Lexemes never hold a space, so {@code ' & '} is only ever an operator.
     */
    private static final String ANY_WORD =
            "cast(replace(cast(plainto_tsquery('english', :query) as text), ' & ', ' | ') as tsquery)";

    private final EntityManager entityManager;

    public PassageRepository(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    /** Stores a file's passages, numbered from 0, in one statement. */
    public void insert(String orgId, UUID fileId, List<String> passages) {
        if (passages.isEmpty()) {
            return;
        }
        entityManager.createNativeQuery("insert into {h-schema}file_passages (org_id, file_id, seq, text)"
                        + " select :org, :file, cast(p.seq - 1 as integer), p.text"
                        + " from unnest(cast(:texts as text[])) with ordinality as p(text, seq)")
                .setParameter("org", orgId)
                .setParameter("file", fileId)
                .setParameter("texts", passages.toArray(String[]::new))
                .executeUpdate();
    }

    /**
     * The {@code topK} passages of the organisation's {@code fileIds} that best match {@code query}: ranked by
     * {@code ts_rank} (normalised by the passage's length, so that long passages do not win by size alone), ties in
     * file and passage order.
     */
    @SuppressWarnings("unchecked")
    public List<Passage> search(String orgId, Collection<UUID> fileIds, String query, int topK) {
        if (fileIds.isEmpty()) {
            return List.of();
        }
        List<Object[]> rows = entityManager.createNativeQuery("select cast(p.file_id as text), p.text,"
                        + " cast(ts_rank(p.tsv, q.query, 1) as double precision) as score"
                        + " from {h-schema}file_passages p, (select " + ANY_WORD + " as query) q"
                        + " where p.org_id = :org and p.file_id in (:files) and p.tsv @@ q.query"
                        + " order by score desc, p.file_id, p.seq limit :k")
                .setParameter("org", orgId)
                .setParameter("files", fileIds)
                .setParameter("query", query)
                .setParameter("k", topK)
                .getResultList();
        return rows.stream().map(row -> new Passage((String) row[0], (String) row[1],
                ((Number) row[2]).doubleValue())).toList();
    }

    /** Up to {@code limit} texts stored before passages existed, locked for one instance ({@code skip locked}). */
    @SuppressWarnings("unchecked")
    public List<Object[]> claimUncut(int limit) {
        return entityManager.createNativeQuery("select org_id, id, text from {h-schema}file_texts"
                        + " where not passages_cut limit :limit for update skip locked")
                .setParameter("limit", limit)
                .getResultList();
    }

    public void markCut(String orgId, UUID fileId) {
        entityManager.createNativeQuery("update {h-schema}file_texts set passages_cut = true"
                        + " where org_id = :org and id = :file")
                .setParameter("org", orgId)
                .setParameter("file", fileId)
                .executeUpdate();
    }
}
