package dev.voiceplane.assistant.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.voiceplane.contracts.assistant.Tool;
import dev.voiceplane.kit.json.StoredDocument;
import dev.voiceplane.kit.json.WrittenDocument;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A tool as it is returned (exactly as {@link dev.voiceplane.assistant.api.AssistantView} returns an assistant): the common fields and the fields as they were written, unset ones omitted.
 * A read answers the stored document as it is ({@code stored}, see the kit's {@code StoredJson.asStored}); a
 * write answers the text it just stored ({@code written}, see the kit's {@code WrittenDocument}); a stored document
 * that no longer reads as its type exactly answers the typed {@code tool}.
 * Both are written the same way: the common fields, then the tool's in {@link Tool}'s order.
 */
@RegisterForReflection
@JsonSerialize(using = ToolView.Writer.class)
public record ToolView(
        String id,
        String orgId,
        Instant createdAt,
        Instant updatedAt,
        @JsonUnwrapped Tool tool,
        @JsonIgnore @Schema(hidden = true) StoredDocument stored,
        @JsonIgnore @Schema(hidden = true) WrittenDocument written) implements DocumentView {

    public ToolView(String id, String orgId, Instant createdAt, Instant updatedAt, Tool tool) {
        this(id, orgId, createdAt, updatedAt, tool, null, null);
    }

    public ToolView(String id, String orgId, Instant createdAt, Instant updatedAt, Tool tool,
            StoredDocument stored) {
        this(id, orgId, createdAt, updatedAt, tool, stored, null);
    }

    /** What a create or a change answers: {@code tool} as just written ({@code written}, the same text). */
    public static ToolView written(String id, String orgId, Instant createdAt, Instant updatedAt,
            Tool tool, WrittenDocument written) {
        return new ToolView(id, orgId, createdAt, updatedAt, tool, null, written);
    }

    static final class Writer extends DocumentView.Writer<ToolView, Tool> {

        Writer() {
            super(ToolView.class, Tool.class, ToolView::tool);
        }
    }
}
