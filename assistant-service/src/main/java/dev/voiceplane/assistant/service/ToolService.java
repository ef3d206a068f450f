package dev.voiceplane.assistant.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.assistant.api.ToolView;
import dev.voiceplane.assistant.domain.StoredTool;
import dev.voiceplane.assistant.repository.SquadRepository;
import dev.voiceplane.assistant.repository.ToolRepository;
import dev.voiceplane.contracts.assistant.AssistantSecrets;
import dev.voiceplane.contracts.assistant.Tool;
import dev.voiceplane.kit.crypto.SealedFields;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.json.WrittenDocument;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.list.ListQuery;
import dev.voiceplane.kit.persistence.Ids;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Use cases of tools ({@code /tool}), each scoped to the caller's organisation, stored as assistants are. A tool
 * that assistants name in {@code model.toolIds} cannot be deleted (409 naming them), and a tool's {@code type}
 * cannot be changed by a PATCH (the fields that mean something depend on it).
 */
@ApplicationScoped
public class ToolService {

    static final String RESOURCE = "Tool";
    /** How many assistants a refused delete names at most. */
    static final int ASSISTANTS_NAMED = 20;
    private static final SealedFields SECRETS = AssistantSecrets.TOOL;

    private final ToolRepository tools;
    private final Documents documents;

    public ToolService(ToolRepository tools, Documents documents) {
        this.tools = tools;
        this.documents = documents;
    }

    public ToolView create(String orgId, Tool body) {
        StoredTool tool = new StoredTool();
        tool.stampCreated(orgId, null);
        WrittenDocument written = documents.written(body, SECRETS, tool.sealingContext());
        tool.document = written.stored();
        documents.storeAnswer(tool, written, Tool.class);
        tools.insert(tool);
        return view(tool, body, written);
    }

    public ToolView get(String orgId, UUID id) {
        return view(owned(orgId, id), Documents.Secrets.LEFT_OUT);
    }

    public List<ToolView> list(String orgId, ListParams params) {
        return ListQuery.list(tools, orgId, params).stream()
                .map(tool -> view(tool, Documents.Secrets.LEFT_OUT)).toList();
    }

    /** Applies a PATCH as assistants are patched; a {@code type} other than the stored one is a 400. */
    public ToolView update(String orgId, UUID id, ObjectNode patch) {
        requireSameType(owned(orgId, id), patch);
        return QuarkusTransaction.requiringNew().call(() -> {
            StoredTool tool = tools.requireOwnedForChange(orgId, id, RESOURCE);
            requireSameType(tool, patch);
            Tool body = documents.patched(tool.document, patch, Tool.class, SECRETS, tool.sealingContext());
            WrittenDocument written = documents.written(body, SECRETS, tool.sealingContext());
            tool.document = written.stored();
            documents.storeAnswer(tool, written, Tool.class);
            tool.touch();
            return view(tool, body, written);
        });
    }

    /** Deletes a tool no assistant names; one that assistants name is refused with a 409 naming them. */
    public ToolView delete(String orgId, UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> {
            if (!tools.lockForDelete(orgId, id)) {
                throw ApiException.notFound(RESOURCE);
            }
            SquadRepository.Users users = tools.assistantsUsing(orgId, id, ASSISTANTS_NAMED);
            if (users.total() > 0) {
                String named = users.first().stream().map(UUID::toString).collect(Collectors.joining(", "));
                String more = users.total() > users.first().size()
                        ? " (and " + (users.total() - users.first().size()) + " more)"
                        : "";
                throw ApiException.conflict("tool is named in model.toolIds of assistants: " + named + more
                        + "; remove it from them first");
            }
            StoredTool tool = owned(orgId, id);
            ToolView deleted = view(tool, Documents.Secrets.LEFT_OUT);
            tools.delete(tool);
            return deleted;
        });
    }

    /**
     * The organisation's tools among these ids with their secrets opened, in the order asked, each once (for
     * call-service, which freezes them into a call); ids it does not have are left out.
     */
    public List<ToolView> resolve(String orgId, List<String> ids) {
        Set<UUID> asked = new LinkedHashSet<>();
        ids.forEach(id -> Ids.parse(id).ifPresent(asked::add));
        List<StoredTool> found = tools.owned(orgId, asked);
        List<ToolView> resolved = new ArrayList<>();
        for (UUID id : asked) {
            found.stream().filter(tool -> tool.id.equals(id)).findFirst()
                    .ifPresent(tool -> resolved.add(view(tool, Documents.Secrets.OPENED)));
        }
        return resolved;
    }

    /**
     * One message per {@code toolIds} entry that names no tool of the organisation ({@code path} prefixes it);
     * {@code existing} answers which exist (a plain query, or one that locks them against deletion).
     */
    public static List<String> unknownTools(String path, List<String> toolIds,
            java.util.function.Function<Collection<UUID>, Set<UUID>> existing) {
        if (toolIds == null || toolIds.isEmpty()) {
            return List.of();
        }
        Set<UUID> found = existing.apply(toolIds(toolIds));
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < toolIds.size(); i++) {
            String toolId = toolIds.get(i);
            if (Ids.parse(toolId).filter(found::contains).isEmpty()) {
                problems.add(path + "model.toolIds." + i + " refers to an unknown tool: " + toolId);
            }
        }
        return problems;
    }

    /** The well-formed ids among {@code toolIds}, each once. */
    public static Set<UUID> toolIds(List<String> toolIds) {
        Set<UUID> ids = new LinkedHashSet<>();
        if (toolIds != null) {
            toolIds.forEach(id -> Ids.parse(id).ifPresent(ids::add));
        }
        return ids;
    }

    private void requireSameType(StoredTool tool, ObjectNode patch) {
        if (!patch.has("type")) {
            return;
        }
        JsonNode stored = documents.typeOf(tool.document);
        if (!patch.get("type").equals(stored)) {
            throw ApiException.invalid(List.of("type cannot be changed (the tool is " + stored.asText()
                    + "); create a new tool instead"));
        }
    }

    private StoredTool owned(String orgId, UUID id) {
        return tools.requireOwned(orgId, id, RESOURCE);
    }

    private ToolView view(StoredTool tool, Documents.Secrets shown) {
        Documents.Answer<Tool> answer = documents.answer(tool, Tool.class, SECRETS, shown);
        return new ToolView(tool.id.toString(), tool.orgId, tool.createdAt, tool.updatedAt, answer.value(),
                answer.stored());
    }

    /** What a write answers: the text just written, unless it holds a secret (then the stored text, without it). */
    private ToolView view(StoredTool tool, Tool body, WrittenDocument written) {
        if (Documents.holdsSealed(written.stored())) {
            return view(tool, Documents.Secrets.LEFT_OUT);
        }
        return ToolView.written(tool.id.toString(), tool.orgId, tool.createdAt, tool.updatedAt, body, written);
    }
}
