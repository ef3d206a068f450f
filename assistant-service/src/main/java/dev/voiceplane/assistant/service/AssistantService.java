package dev.voiceplane.assistant.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.assistant.api.AssistantView;
import dev.voiceplane.assistant.domain.Assistant;
import dev.voiceplane.assistant.repository.AssistantRepository;
import dev.voiceplane.assistant.repository.SquadRepository;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.contracts.assistant.AssistantSecrets;
import dev.voiceplane.assistant.repository.ToolRepository;
import dev.voiceplane.kit.crypto.SealedFields;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.json.WrittenDocument;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.list.ListQuery;
import dev.voiceplane.kit.lookup.IdLookupResult;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Use cases of assistants, each scoped to the caller's organisation. Writes that name knowledge-base files ask
 * file-service first and open their transaction only afterwards, so that no database connection or row lock is
 * held while another service answers; a failed check writes nothing.
 */
@ApplicationScoped
public class AssistantService {

    /** How many squads a refused delete names at most. */
    static final int SQUADS_NAMED = 20;
    static final String RESOURCE = "Assistant";
    private static final SealedFields SECRETS = AssistantSecrets.ASSISTANT;

    private final AssistantRepository assistants;
    private final SquadRepository squads;
    private final Documents documents;
    private final FileReferences files;
    private final ToolRepository tools;

    public AssistantService(AssistantRepository assistants, SquadRepository squads, Documents documents,
            FileReferences files, ToolRepository tools) {
        this.assistants = assistants;
        this.squads = squads;
        this.documents = documents;
        this.files = files;
        this.tools = tools;
    }

    /**
     * Creates an assistant: one row, written as one statement that is its own transaction
     * ({@link dev.voiceplane.kit.persistence.OrgScopedRepository#insert}); the answer is the text just stored.
     */
    public AssistantView create(String orgId, AssistantBody body) {
        documents.requireOneServer(body);
        requireKnownReferences(orgId, body);
        Assistant assistant = new Assistant();
        assistant.stampCreated(orgId, null);
        WrittenDocument written = documents.written(body, SECRETS, assistant.sealingContext());
        assistant.document = written.stored();
        documents.storeAnswer(assistant, written, AssistantBody.class);
        if (toolIds(body).isEmpty()) {
            assistants.insert(assistant);
            return view(assistant, body, written);
        }
        // Named tools: the row and its references in one transaction, the tools locked against deletion in it.
        return QuarkusTransaction.requiringNew().call(() -> {
            Set<UUID> named = lockTools(orgId, body);
            assistants.persist(assistant);
            assistants.flush();
            tools.recordAssistantTools(orgId, assistant.id, named);
            return view(assistant, body, written);
        });
    }

    public AssistantView get(String orgId, UUID id) {
        return view(owned(orgId, id));
    }

    /** The assistant with its secrets opened: for other services only ({@code GET /internal/assistant/{id}}). */
    public AssistantView getWithSecrets(String orgId, UUID id) {
        return view(owned(orgId, id), Documents.Secrets.OPENED);
    }

    public List<AssistantView> list(String orgId, ListParams params) {
        return ListQuery.list(assistants, orgId, params).stream().map(this::view).toList();
    }

    /**
     * Applies a PATCH (see {@link dev.voiceplane.kit.json.MergePatch}). The result is validated, and its files checked when the
     * patch gives a model, before the transaction; inside it the row is locked and the patch applied again to
     * what is stored then, so that concurrent PATCHes of different fields both take effect.
     */
    public AssistantView update(String orgId, UUID id, ObjectNode patch) {
        AssistantBody preview = patched(owned(orgId, id), patch);
        boolean modelChanges = patch.has("model");
        if (modelChanges) {
            requireKnownReferences(orgId, preview);
        }
        return QuarkusTransaction.requiringNew().call(() -> {
            Assistant assistant = assistants.requireOwnedForChange(orgId, id, RESOURCE);
            AssistantBody body = patched(assistant, patch);
            if (modelChanges) {
                tools.recordAssistantTools(orgId, assistant.id, lockTools(orgId, body));
            }
            WrittenDocument written = documents.written(body, SECRETS, assistant.sealingContext());
            assistant.document = written.stored();
            documents.storeAnswer(assistant, written, AssistantBody.class);
            assistant.touch();
            return view(assistant, body, written);
        });
    }

    /**
     * Deletes an assistant that no squad names as a member; one that squads use is refused with a 409 naming
     * them, since deleting it would leave those squads with a member that no longer exists.
     */
    public AssistantView delete(String orgId, UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> deleteUnused(orgId, id));
    }

    private AssistantView deleteUnused(String orgId, UUID id) {
        if (!assistants.lockForDelete(orgId, id)) {
            throw notFound();
        }
        SquadRepository.Users users = squads.squadsUsing(orgId, id, SQUADS_NAMED);
        if (users.total() > 0) {
            String named = users.first().stream().map(UUID::toString).collect(Collectors.joining(", "));
            String more = users.total() > users.first().size()
                    ? " (and " + (users.total() - users.first().size()) + " more)"
                    : "";
            throw ApiException.conflict(
                    "assistant is a member of squads: " + named + more + "; remove it from them first");
        }
        Assistant assistant = owned(orgId, id);
        AssistantView deleted = view(assistant);
        assistants.delete(assistant);
        return deleted;
    }

    /** Which of these ids are assistants of the organisation (for other services): in the order asked, each once. */
    public IdLookupResult lookup(String orgId, List<String> ids) {
        return IdLookupResult.of(ids, asked -> assistants.existing(orgId, asked));
    }

    /** Knowledge-base files (file-service) and {@code model.toolIds} (this service's tools) the body names. */
    private void requireKnownReferences(String orgId, AssistantBody body) {
        List<String> problems = new ArrayList<>(
                ToolService.unknownTools("", toolIdList(body), asked -> tools.existing(orgId, asked)));
        problems.addAll(files.problems(orgId, FileReferences.in("", body)));
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
    }

    /** The tools the body names, locked against deletion; a 400 if one has gone since the check. */
    private Set<UUID> lockTools(String orgId, AssistantBody body) {
        List<String> gone = ToolService.unknownTools("", toolIdList(body), asked -> tools.lockExisting(orgId, asked));
        if (!gone.isEmpty()) {
            throw ApiException.invalid(gone);
        }
        return toolIds(body);
    }

    private static List<String> toolIdList(AssistantBody body) {
        return body.model == null ? null : body.model.toolIds();
    }

    private static Set<UUID> toolIds(AssistantBody body) {
        return ToolService.toolIds(toolIdList(body));
    }

    private Assistant owned(String orgId, UUID id) {
        return assistants.requireOwned(orgId, id, RESOURCE);
    }

    private AssistantBody patched(Assistant assistant, ObjectNode patch) {
        return documents.patched(assistant.document, patch, AssistantBody.class, SECRETS, assistant.sealingContext());
    }

    private AssistantView view(Assistant assistant) {
        return view(assistant, Documents.Secrets.LEFT_OUT);
    }

    private AssistantView view(Assistant assistant, Documents.Secrets shown) {
        Documents.Answer<AssistantBody> answer = documents.answer(assistant, AssistantBody.class, SECRETS, shown);
        return new AssistantView(assistant.id.toString(), assistant.orgId, assistant.createdAt, assistant.updatedAt,
                answer.value(), answer.stored());
    }

    /** What a write answers: the text just written, unless it holds secrets (write-only: then the stored text, without them). */
    private AssistantView view(Assistant assistant, AssistantBody body, WrittenDocument written) {
        if (Documents.holdsSealed(written.stored())) {
            return view(assistant);
        }
        return AssistantView.written(assistant.id.toString(), assistant.orgId, assistant.createdAt,
                assistant.updatedAt, body, written);
    }

    static ApiException notFound() {
        return ApiException.notFound(RESOURCE);
    }
}
