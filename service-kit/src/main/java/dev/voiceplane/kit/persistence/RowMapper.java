package dev.voiceplane.kit.persistence;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Supplier;

/**
 * How the rows of one entity's table read into the entity without the ORM ({@link PlainReads}: reads outside a
 * transaction). Declared next to the entity, beside its JPA mapping, it names the entity's own columns and reads
 * them; the common columns ({@code org_id}, {@code id}, {@code created_at}, {@code updated_at}) are the kit's.
 * A repository offers it by overriding {@link OrgScopedRepository#rows()}.
 *
 * @param table   the table, without its schema (the service's default schema is added, as {@code {h-schema}} does)
 * @param columns the entity's own columns, read after the common ones
 * @param create  a new, empty entity
 * @param read    fills the entity's own fields from the row; its columns start at {@code first}
 */
public record RowMapper<E extends OrgScopedEntity>(String table, List<String> columns, Supplier<E> create,
        Columns<E> read) {

    public RowMapper {
        columns = List.copyOf(columns);
    }

    /** Reads an entity's own columns, the first of them at {@code first} (JDBC's 1-based index). */
    @FunctionalInterface
    public interface Columns<E> {
        void read(E entity, ResultSet row, int first) throws SQLException;
    }
}
