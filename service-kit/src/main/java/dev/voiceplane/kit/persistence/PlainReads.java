package dev.voiceplane.kit.persistence;

import io.agroal.api.AgroalDataSource;
import io.quarkus.arc.Arc;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.ConfigProvider;
import org.hibernate.SessionFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.stat.spi.StatisticsImplementor;

/**
 * Reads outside a transaction as one plain prepared statement on the datasource, mapped by the entity's
 * {@link RowMapper}: no ORM session at all (even a {@code StatelessSession} cost about as much CPU as the rest of a
 * by-id read, "Read path" in BENCHMARKS.md). Every statement is scoped to an organisation by construction: the
 * {@code where} clause always starts with {@code org_id = ?}. Each statement is counted in Hibernate's statistics as
 * one prepared statement, so that a count of what a request sends covers these reads as it covers the ORM's.
 */
public final class PlainReads {

    private static final String COMMON = "org_id, id, created_at, updated_at";
    /** The select list and table of each mapper, worked out once. */
    private static final Map<RowMapper<?>, String> SELECTS = new ConcurrentHashMap<>();

    private static volatile AgroalDataSource dataSource;
    private static volatile StatisticsImplementor statistics;

    private PlainReads() {
    }

    /** The row {@code (orgId, id)}, if there is one. */
    public static <E extends OrgScopedEntity> Optional<E> find(RowMapper<E> rows, String orgId, UUID id) {
        List<E> found = select(rows, "org_id = ? and id = ?", List.of(id), "", 1, orgId);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    /**
     * The first {@code limit} rows of the organisation matching {@code where} (SQL, {@code ?} for each of
     * {@code parameters}; {@link Instant}s are bound as {@code timestamptz}), in {@code orderBy}'s order.
     */
    public static <E extends OrgScopedEntity> List<E> list(RowMapper<E> rows, String orgId, String where,
            List<Object> parameters, String orderBy, int limit) {
        List<Object> bound = new ArrayList<>(parameters);
        bound.add(limit);
        return select(rows, "org_id = ?" + (where.isEmpty() ? "" : " and " + where), bound,
                " order by " + orderBy + " limit ?", limit, orgId);
    }

    private static <E extends OrgScopedEntity> List<E> select(RowMapper<E> rows, String where, List<Object> parameters,
            String tail, int expected, String orgId) {
        String sql = SELECTS.computeIfAbsent(rows, PlainReads::selectFrom) + " where " + where + tail;
        StatisticsImplementor counted = statistics();
        try (Connection connection = dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            if (counted.isStatisticsEnabled()) {
                counted.prepareStatement();
            }
            statement.setString(1, orgId);
            for (int i = 0; i < parameters.size(); i++) {
                Object value = parameters.get(i);
                statement.setObject(i + 2, value instanceof Instant instant
                        ? OffsetDateTime.ofInstant(instant, ZoneOffset.UTC) : value);
            }
            List<E> found = new ArrayList<>(Math.min(expected, 1000));
            try (ResultSet row = statement.executeQuery()) {
                while (row.next()) {
                    found.add(read(rows, row));
                }
            }
            if (counted.isStatisticsEnabled()) {
                counted.closeStatement();
            }
            return found;
        } catch (SQLException e) {
            throw new PersistenceException("reading " + rows.table() + " failed", e);
        }
    }

    private static <E extends OrgScopedEntity> E read(RowMapper<E> rows, ResultSet row) throws SQLException {
        E entity = rows.create().get();
        entity.orgId = row.getString(1);
        entity.id = row.getObject(2, UUID.class);
        entity.createdAt = row.getObject(3, OffsetDateTime.class).toInstant();
        entity.updatedAt = row.getObject(4, OffsetDateTime.class).toInstant();
        rows.read().read(entity, row, 5);
        return entity;
    }

    private static String selectFrom(RowMapper<?> rows) {
        StringBuilder select = new StringBuilder("select ").append(COMMON);
        rows.columns().forEach(column -> select.append(", ").append(column));
        String schema = ConfigProvider.getConfig()
                .getOptionalValue("quarkus.hibernate-orm.database.default-schema", String.class).orElse(null);
        return select.append(" from ").append(schema == null ? "" : schema + ".").append(rows.table()).toString();
    }

    private static AgroalDataSource dataSource() {
        AgroalDataSource found = dataSource;
        if (found == null) {
            found = Arc.container().instance(AgroalDataSource.class).get();
            dataSource = found;
        }
        return found;
    }

    private static StatisticsImplementor statistics() {
        StatisticsImplementor found = statistics;
        if (found == null) {
            found = Arc.container().instance(SessionFactory.class).get().unwrap(SessionFactoryImplementor.class)
                    .getStatistics();
            statistics = found;
        }
        return found;
    }
}
