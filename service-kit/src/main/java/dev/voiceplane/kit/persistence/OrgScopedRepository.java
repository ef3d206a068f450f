package dev.voiceplane.kit.persistence;

import dev.voiceplane.kit.error.ApiException;
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
     * One primary-key lookup, scoped to the organisation. Outside a transaction (a plain read) the row is read
     * without the ORM's persistence context (see {@link #rows()}): the entity is detached, as anything read
     * outside a transaction is for all purposes. Inside one it is the managed entity, to be changed or deleted.
     */
    @SuppressWarnings("unchecked")
    default Optional<E> findOwned(String orgId, UUID id) {
        OrgScopedId key = new OrgScopedId(orgId, id);
        if (!QuarkusTransaction.isActive()) {
            RowMapper<E> rows = rows();
            if (rows != null) {
                return PlainReads.find(rows, orgId, id);
            }
            Optional<Class<?>> type = ReadOnlyLookup.entityType(getClass());
            if (type.isPresent()) {
                return ReadOnlyLookup.find((Class<E>) type.get(), key);
            }
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

    /** The same, holding the row ({@code FOR UPDATE}) until the transaction ends, so concurrent changes apply in turn. */
    default Optional<E> findOwnedForChange(String orgId, UUID id) {
        return findByIdOptional(new OrgScopedId(orgId, id), LockModeType.PESSIMISTIC_WRITE);
    }

    /** The resource, or the 404 "{@code <resource> not found}" (also for another organisation's id). */
    default E requireOwned(String orgId, UUID id, String resource) {
        return findOwned(orgId, id).orElseThrow(() -> ApiException.notFound(resource));
    }

    /** Like {@link #requireOwned}, locked for a change. */
    default E requireOwnedForChange(String orgId, UUID id, String resource) {
        return findOwnedForChange(orgId, id).orElseThrow(() -> ApiException.notFound(resource));
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
