package dev.voiceplane.assistant.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.assistant.domain.AnsweredDocument;
import dev.voiceplane.contracts.assistant.ServerForms;
import dev.voiceplane.kit.crypto.SealedFields;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.crypto.SecretBox;
import dev.voiceplane.kit.json.MergePatch;
import dev.voiceplane.kit.json.StoredDocument;
import dev.voiceplane.kit.json.StoredJson;
import dev.voiceplane.kit.json.WrittenDocument;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * The stored form of assistants and squads: the wire format's fields as JSON text (unset fields omitted,
 * free-form parts and numbers exactly as sent), with the customer's webhook secrets sealed in place
 * ({@link SealedFields}, bound to the row's context), and the PATCH rule applied to it. Those secrets are write-only:
 * public answers leave them out, internal routes (call-service freezing a call's assistant) get them opened.
 */
@ApplicationScoped
public class Documents {

    private final ObjectMapper json;
    private final MergePatch merge;
    private final SecretBox box;
    private final StoredJson stored;

    public Documents(ObjectMapper json, MergePatch merge, SecretBox box, StoredJson stored) {
        this.json = json;
        this.merge = merge;
        this.box = box;
        this.stored = stored;
    }

    /**
     * A validated body to store and answer (see {@link WrittenDocument}): one serialisation gives the stored text,
     * its secrets sealed for the row {@code context}, and the answer's fields.
     */
    public WrittenDocument written(Object value, SealedFields secrets, String context) {
        return WrittenDocument.of(json, value, secrets, box, context);
    }

    /**
     * Stores with the row the public answer's fields of its write (see {@link AnsweredDocument}): the text just
     * written, under the type's current form, when it holds no secret (public answers leave secrets out); otherwise
     * none, and reads answer from the document.
     */
    public void storeAnswer(AnsweredDocument row, WrittenDocument written, Class<?> type) {
        boolean secrets = holdsSealed(written.stored());
        row.answer = secrets ? null : written.fields();
        row.answerForm = secrets ? null : stored.form(type);
    }

    /** What a read answers: the stored document as it is ({@code stored}), or else its typed {@code value}. */
    public record Answer<T>(T value, StoredDocument stored) {
    }

    /** Whether an answer shows the secrets in a document: internal routes do, the public API never does. */
    public enum Secrets { OPENED, LEFT_OUT }

    /**
     * What a read of the row answers: for a public read, the answer's fields stored with it, as they are (a byte
     * copy: no scan, no tree), when they were written under the type's current form; anything else (an internal
     * read, a row written with secrets or before answers were stored, another form) reads the document.
     */
    public <T> Answer<T> answer(AnsweredDocument row, Class<T> type, SealedFields secrets, Secrets shown) {
        if (shown == Secrets.LEFT_OUT && row.answer != null && row.answerForm != null
                && row.answerForm == stored.form(type)) {
            return new Answer<>(null, stored.answered(row.answer));
        }
        return answer(row.document, type, secrets, row.sealingContext(), shown);
    }

    /**
     * What a read without a current stored answer answers (an internal read, secrets opened; a row with secrets; one
     * written before answers were stored or under another form), its secrets opened or left out: the stored document
     * itself when it reads as its type exactly (the common case: it was validated when written), written from its
     * tree in the type's order, so that a read does not bind it to the typed records only to write them again;
     * otherwise what {@link StoredJson#read} answers.
     */
    private <T> Answer<T> answer(String document, Class<T> type, SealedFields secrets, String context, Secrets shown) {
        ObjectNode tree = shown == Secrets.OPENED ? open(document, secrets, context) : withoutSecrets(document, secrets);
        return stored.asStored(tree, type)
                .map(verbatim -> new Answer<T>(null, verbatim))
                .orElseGet(() -> new Answer<>(stored.read(tree, type, context), null));
    }

    /**
     * Whether the stored text of a write holds a sealed secret, so that its answer cannot be the text as written.
     * A false positive (free-form JSON holding the prefix) only costs the read of the stored text.
     */
    public static boolean holdsSealed(String storedText) {
        return storedText.contains(SealedFields.PREFIX);
    }

    /** The stored document with a PATCH applied, read and validated as a request body would be (see {@link MergePatch}). */
    public <T> T patched(String document, ObjectNode patch, Class<T> type, SealedFields secrets, String context) {
        List<String> conflicts = ServerForms.conflicts("", patch);
        if (!conflicts.isEmpty()) {
            throw ApiException.invalid(conflicts);
        }
        ObjectNode current = open(document, secrets, context);
        // The server's two spellings hold one value: a PATCH of one changes the other where it is stored.
        ObjectNode aligned = patch.deepCopy();
        ServerForms.align(aligned, current);
        return merge.apply(current, aligned, type);
    }

    /** A body given in both of the server's spellings must give one value (see {@link ServerForms}). */
    public void requireOneServer(Object body) {
        List<String> conflicts = ServerForms.conflicts("", json.valueToTree(body));
        if (!conflicts.isEmpty()) {
            throw ApiException.invalid(conflicts);
        }
    }

    /** The stored document's {@code type} (a tool's), or a missing node. */
    public com.fasterxml.jackson.databind.JsonNode typeOf(String document) {
        try {
            return stored.parse(document).path("type");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored document is not the JSON object it was written as", e);
        }
    }

    private ObjectNode withoutSecrets(String document, SealedFields secrets) {
        try {
            return secrets.remove((ObjectNode) stored.parse(document));
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("a stored document is not the JSON object it was written as", e);
        }
    }

    private ObjectNode open(String document, SealedFields secrets, String context) {
        try {
            return secrets.open((ObjectNode) stored.parse(document), box, context);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("a stored document is not the JSON object it was written as", e);
        }
    }
}
