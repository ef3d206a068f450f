package dev.voiceplane.assistant.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.voiceplane.contracts.assistant.SquadMember;
import dev.voiceplane.kit.json.JsonConventions;
import dev.voiceplane.kit.json.StoredDocument;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A squad as it is returned. A read answers the stored document as it is ({@code stored}); a write, or a stored
 * document that no longer reads as its type exactly, answers the typed {@code members} (see {@link AssistantView}).
 */
@RegisterForReflection
@JsonSerialize(using = SquadView.Writer.class)
public record SquadView(
        String id,
        String orgId,
        Instant createdAt,
        Instant updatedAt,
        String name,
        List<SquadMember> members,
        @JsonIgnore @Schema(hidden = true) StoredDocument stored) {

    public SquadView(String id, String orgId, Instant createdAt, Instant updatedAt, String name,
            List<SquadMember> members) {
        this(id, orgId, createdAt, updatedAt, name, members, null);
    }

    static final class Writer extends StdSerializer<SquadView> {

        Writer() {
            super(SquadView.class);
        }

        @Override
        public void serialize(SquadView view, JsonGenerator generator, SerializerProvider provider) throws IOException {
            generator.writeStartObject(view);
            JsonConventions.writeResourceFields(generator, view.id(), view.orgId(), view.createdAt(), view.updatedAt());
            if (view.stored() != null) {
                view.stored().writeFields(generator, provider);
            } else {
                if (view.name() != null) {
                    generator.writeStringField("name", view.name());
                }
                if (view.members() != null) {
                    provider.defaultSerializeField("members", view.members(), generator);
                }
            }
            generator.writeEndObject();
        }
    }
}
