package dev.voiceplane.kit.list;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import dev.voiceplane.kit.persistence.OrgScopedId;
import dev.voiceplane.kit.persistence.OrgScopedRepository;
import dev.voiceplane.kit.persistence.PlainReads;
import dev.voiceplane.kit.persistence.RowMapper;
import dev.voiceplane.kit.persistence.ReadOnlyLookup;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runs a {@link ListParams} against a repository: scoped to one organisation, newest first with the id as
 * tie-break, so the query walks the {@code (org_id, created_at desc, id desc)} index and stops at the limit.
 */
public final class ListQuery {

    private static final Sort NEWEST_FIRST = Sort.by("createdAt", Sort.Direction.Descending)
            .and("id", Sort.Direction.Descending);
    /** The same order, for a query outside a transaction ({@link ReadOnlyLookup}). */
    private static final String NEWEST_FIRST_HQL = " order by createdAt desc, id desc";
    /** The same order, in SQL ({@link PlainReads}). */
    private static final String NEWEST_FIRST_SQL = "created_at desc, id desc";
    /** The columns of the time filters' fields. */
    private static final Map<String, String> COLUMNS = Map.of("createdAt", "created_at", "updatedAt", "updated_at");

    private ListQuery() {
    }

    /**
     * @param columns maps each allowed equality parameter to the entity attribute it filters
     *                ({@code assistantId -> assistantId}); values are compared as given.
     */
    @SuppressWarnings("unchecked")
    public static <E extends OrgScopedEntity> List<E> list(PanacheRepositoryBase<E, OrgScopedId> repository,
            String orgId, ListParams params, Map<String, EqualityColumn> columns) {
        if (params.limit() == 0) {
            return List.of();
        }
        StringBuilder where = new StringBuilder("orgId = :orgId");
        Parameters bind = Parameters.with("orgId", orgId);
        for (ListParams.TimeFilter filter : params.timeFilters()) {
            where.append(" and ").append(filter.field()).append(' ').append(filter.operator())
                    .append(" :").append(filter.parameter());
            bind.and(filter.parameter(), filter.bound());
        }
        for (Map.Entry<String, String> equality : params.equalities().entrySet()) {
            EqualityColumn column = columns.get(equality.getKey());
            if (column == null) {
                throw new IllegalArgumentException("no column for list filter " + equality.getKey());
            }
            Object value = column.convert(equality.getValue());
            if (value == null) {
                return List.of();
            }
            where.append(" and ").append(column.attribute()).append(" = :").append(equality.getKey());
            bind.and(equality.getKey(), value);
        }
        if (!QuarkusTransaction.isActive()) {
            RowMapper<E> rows = repository instanceof OrgScopedRepository<E> owned ? owned.listRows() : null;
            if (rows != null && params.equalities().isEmpty()) {
                return plain(rows, orgId, params);
            }
            Optional<Class<?>> type = ReadOnlyLookup.entityType(repository.getClass());
            if (type.isPresent()) {
                return ReadOnlyLookup.list((Class<E>) type.get(), "where " + where + NEWEST_FIRST_HQL, bind.map(),
                        params.limit());
            }
        }
        return repository.find(where.toString(), NEWEST_FIRST, bind).page(Page.ofSize(params.limit())).list();
    }

    /** The same as one plain statement ({@link PlainReads}), for entities with a {@link RowMapper}. */
    private static <E extends OrgScopedEntity> List<E> plain(RowMapper<E> rows, String orgId, ListParams params) {
        StringBuilder where = new StringBuilder();
        List<Object> bind = new ArrayList<>();
        for (ListParams.TimeFilter filter : params.timeFilters()) {
            where.append(where.isEmpty() ? "" : " and ").append(COLUMNS.get(filter.field())).append(' ')
                    .append(filter.operator()).append(" ?");
            bind.add(filter.bound());
        }
        return PlainReads.list(rows, orgId, where.toString(), bind, NEWEST_FIRST_SQL, params.limit());
    }

    public static <E extends OrgScopedEntity> List<E> list(PanacheRepositoryBase<E, OrgScopedId> repository,
            String orgId, ListParams params) {
        return list(repository, orgId, params, Map.of());
    }

    /**
     * An entity attribute that a list can be filtered on, with the conversion of the query value
     * (returning {@code null} when the value cannot match anything, such as a malformed UUID).
     */
    public record EqualityColumn(String attribute, Function<String, Object> converter) {
        Object convert(String value) {
            return converter.apply(value);
        }
    }
}
