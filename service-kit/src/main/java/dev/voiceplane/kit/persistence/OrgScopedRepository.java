package dev.voiceplane.kit.persistence;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Parameters;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.persistence.LockModeType;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The repository of an organisation-scoped resource: every lookup takes the organisation, so no code path can
 * read another organisation's row by forgetting it. A service's repository implements this instead of
 * {@link PanacheRepositoryBase} and adds only the queries that are its own.
 */
public interface OrgScopedRepository<E extends OrgScopedEntity> extends PanacheRepositoryBase<E, OrgScopedId> {

    /**
     * Reads one resource, scoped to the organisation: a primary-key lookup without the ORM's persistence context
     * (see {@link #rows()}), inside a transaction or not, so the entity answered is detached: a change made to it is
     * not written. To change or delete a resource, read it with {@link #findOwnedForChange} in the transaction.
     */
    @SuppressWarnings("unchecked")
    default Optional<E> findOwned(String orgId, UUID id) {
        OrgScopedId key = new OrgScopedId(orgId, id);
        RowMapper<E> rows = rows();
        if (rows != null) {
            return PlainReads.find(rows, orgId, id);
        }
        Optional<Class<?>> type = ReadOnlyLookup.entityType(getClass());
        if (type.isPresent()) {
            return ReadOnlyLookup.find((Class<E>) type.get(), key);
        }
        return findByIdOptional(key);
    }

    /**
     * Stores a new resource. Inside a transaction it is persisted with the rest of the transaction's work; outside one
     * it is written at once as one statement that is its own transaction ({@link SingleInsert}): a create that writes
     * one row needs no more, and does not pay for a JTA transaction and a persistence context. Outside a transaction
     * the entity stays detached: a change made to it afterwards is not written.
     */
    default void insert(E entity) {
        if (QuarkusTransaction.isActive()) {
            persist(entity);
        } else {
            SingleInsert.insert(entity);
        }
    }

    /**
     * How the entity's rows read without the ORM, for reads outside a transaction ({@link PlainReads}: one plain
     * prepared statement); null (the default) reads them through a {@code StatelessSession} ({@link ReadOnlyLookup}).
     */
    default RowMapper<E> rows() {
        return null;
    }

    /** How a list's rows read ({@link #rows()} unless a list needs fewer columns). */
    default RowMapper<E> listRows() {
        return rows();
    }

    /**
     * Reads one resource to change or delete it, in the current transaction: the managed entity, its row held
     * ({@code FOR UPDATE}) until the transaction ends, so concurrent changes apply in turn.
     */
    default Optional<E> findOwnedForChange(String orgId, UUID id) {
        return findByIdOptional(new OrgScopedId(orgId, id), LockModeType.PESSIMISTIC_WRITE);
    }

    /** The resource, or {@link NotFound} (answered as the 404 "{@code <resource> not found}"; also for another organisation's id). */
    default E requireOwned(String orgId, UUID id, String resource) {
        return findOwned(orgId, id).orElseThrow(() -> new NotFound(resource));
    }

    /** Like {@link #requireOwned}, read for a change ({@link #findOwnedForChange}). */
    default E requireOwnedForChange(String orgId, UUID id, String resource) {
        return findOwnedForChange(orgId, id).orElseThrow(() -> new NotFound(resource));
    }

    /** Which of these ids exist in the organisation: one query on the primary key, reading no other column. */
    default Set<UUID> existing(String orgId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        return find("orgId = :org and id in :ids", Parameters.with("org", orgId).and("ids", ids))
                .project(OwnedId.class)
                .stream()
                .map(OwnedId::id)
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The projection {@link #existing} reads. Panache finds its constructor by reflection, which a native executable
     * keeps only for classes registered for it (without, a squad naming an assistant failed there, 2026-11-26).
     */
    @RegisterForReflection
    record OwnedId(UUID id) {
    }
}
