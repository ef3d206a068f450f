package dev.voiceplane.kit.persistence;

import org.hibernate.StatelessSession;

/**
 * A new row written on its own, outside any transaction: one {@code insert} through a Hibernate
 * {@link StatelessSession} on a connection in auto-commit, so the statement is its own transaction. A single
 * statement is atomic by itself; a JTA transaction around it (Narayana's begin and commit, the session and its
 * persistence context, the flush with its dirty checking) cost more CPU than everything else a
 * {@code POST /assistant} does (BENCHMARKS.md, "Create path"). The entity's mapping (columns, jsonb,
 * UUID, timestamps) is Hibernate's, as for every other write. A failing insert (a duplicate key, say) throws and
 * writes nothing.
 */
final class SingleInsert {

    private SingleInsert() {
    }

    static void insert(Object entity) {
        try (StatelessSession session = ReadOnlyLookup.sessions().openStatelessSession()) {
            session.insert(entity);
        }
    }
}
