package dev.voiceplane.assistant.domain;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.persistence.Column;
import jakarta.persistence.MappedSuperclass;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Supplier;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A resource stored as its validated body (assistants, squads, tools): the body as JSON text in a jsonb column, and
 * next to it the public answer's fields as the write produced them, so that a public read copies them as they are
 * (docs/architecture.md, "Stored documents and their answers").
 */
@MappedSuperclass
public abstract class AnsweredDocument extends OrgScopedEntity {

    /** The resource's fields as written, secrets sealed; never the common fields. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public String document;

    /**
     * The public answer's fields (no secrets, no common fields, no braces), written with {@link #document}; null when
     * the document holds secrets or was stored before answers were (then reads answer from the document).
     */
    @Column
    public String answer;

    /** The form of the answer type {@link #answer} was written under (the kit's {@code StoredJson.form}). */
    @Column(name = "answer_form")
    public Long answerForm;

    /** What the row's sealed secrets are bound to: a ciphertext copied into another row does not open. */
    public abstract String sealingContext();

    /** How the rows of {@code table} read without the ORM: the document and the stored answer. */
    protected static <E extends AnsweredDocument> RowMapper<E> rows(String table, Supplier<E> create) {
        return new RowMapper<>(table, List.of("document", "answer", "answer_form"), create,
                (entity, row, first) -> {
                    entity.document = row.getString(first);
                    readAnswer(entity, row, first + 1);
                });
    }

    /**
     * How a list's rows read: the stored answer, and the document only where that answer cannot be answered as it is
     * (none, or one of another form than {@code form}), so that PostgreSQL does not write out a document as text for
     * nothing. A list's entities only make answers: their {@link #document} is null where the answer is current.
     */
    protected static <E extends AnsweredDocument> RowMapper<E> listRows(String table, Supplier<E> create, long form) {
        return new RowMapper<>(table, List.of("answer", "answer_form",
                "case when answer is not null and answer_form = " + form + " then null else document end"), create,
                (entity, row, first) -> {
                    readAnswer(entity, row, first);
                    entity.document = row.getString(first + 2);
                });
    }

    private static void readAnswer(AnsweredDocument entity, ResultSet row, int first) throws SQLException {
        entity.answer = row.getString(first);
        long form = row.getLong(first + 1);
        entity.answerForm = row.wasNull() ? null : form;
    }
}
