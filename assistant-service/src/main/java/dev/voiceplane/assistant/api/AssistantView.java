package dev.voiceplane.assistant.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.kit.json.StoredDocument;
import dev.voiceplane.kit.json.WrittenDocument;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An assistant as it is returned: the common fields and the fields as they were written, unset ones omitted.
 * A read answers the stored document as it is ({@code stored}, see the kit's {@code StoredJson.asStored}); a
 * write answers the text it just stored ({@code written}, see the kit's {@code WrittenDocument}); a stored document
 * that no longer reads as its type exactly answers the typed {@code assistant}.
 * Both are written the same way: the common fields, then the assistant's in {@link AssistantBody}'s order.
 */
@RegisterForReflection
@JsonSerialize(using = AssistantView.Writer.class)
public record AssistantView(
        String id,
        String orgId,
        Instant createdAt,
        Instant updatedAt,
        @JsonUnwrapped AssistantBody assistant,
        @JsonIgnore @Schema(hidden = true) StoredDocument stored,
        @JsonIgnore @Schema(hidden = true) WrittenDocument written) implements DocumentView {

    public AssistantView(String id, String orgId, Instant createdAt, Instant updatedAt, AssistantBody assistant) {
        this(id, orgId, createdAt, updatedAt, assistant, null, null);
    }

    public AssistantView(String id, String orgId, Instant createdAt, Instant updatedAt, AssistantBody assistant,
            StoredDocument stored) {
        this(id, orgId, createdAt, updatedAt, assistant, stored, null);
    }

    /** What a create or a change answers: {@code assistant} as just written ({@code written}, the same text). */
    public static AssistantView written(String id, String orgId, Instant createdAt, Instant updatedAt,
            AssistantBody assistant, WrittenDocument written) {
        return new AssistantView(id, orgId, createdAt, updatedAt, assistant, null, written);
    }

    static final class Writer extends DocumentView.Writer<AssistantView, AssistantBody> {

        Writer() {
            super(AssistantView.class, AssistantBody.class, AssistantView::assistant);
        }
    }
}
