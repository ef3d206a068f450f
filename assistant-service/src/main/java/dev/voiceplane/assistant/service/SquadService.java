package dev.voiceplane.assistant.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.assistant.api.SquadView;
import dev.voiceplane.assistant.domain.Squad;
import dev.voiceplane.assistant.repository.AssistantRepository;
import dev.voiceplane.assistant.repository.SquadRepository;
import dev.voiceplane.contracts.assistant.AssistantSecrets;
import dev.voiceplane.contracts.assistant.SquadBody;
import dev.voiceplane.contracts.assistant.SquadMember;
import dev.voiceplane.assistant.repository.ToolRepository;
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
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;

/**
 * Use cases of squads, each scoped to the caller's organisation. A member's {@code assistantId} must name an
 * assistant of the organisation, and the knowledge-base files of inline assistants and overrides must exist:
 * both are checked before the transaction (one query, one file-service lookup, however many members), and the
 * named assistants are locked against deletion inside it, so a squad never names an assistant that is gone.
 */
@ApplicationScoped
public class SquadService {

    static final String RESOURCE = "Squad";
    private static final SealedFields SECRETS = AssistantSecrets.SQUAD;

    private final SquadRepository squads;
    private final AssistantRepository assistants;
    private final Documents documents;
    private final FileReferences files;
    private final ToolRepository tools;

    public SquadService(SquadRepository squads, AssistantRepository assistants, Documents documents,
            FileReferences files, ToolRepository tools) {
        this.squads = squads;
        this.assistants = assistants;
        this.documents = documents;
        this.files = files;
        this.tools = tools;
    }

    public SquadView create(String orgId, SquadBody body) {
        requireKnownReferences(orgId, body);
        return QuarkusTransaction.requiringNew().call(() -> {
            Set<UUID> members = lockMemberAssistants(orgId, body);
            Squad squad = new Squad();
            squad.stampCreated(orgId, null);
            WrittenDocument written = documents.written(body, SECRETS, squad.sealingContext());
            squad.document = written.stored();
            documents.storeAnswer(squad, written, SquadBody.class);
            squads.persist(squad);
            squads.flush();
            squads.recordMemberAssistants(orgId, squad.id, members);
            return view(squad, body);
        });
    }

    public SquadView get(String orgId, UUID id) {
        return view(owned(orgId, id));
    }

    /** The squad with its members' secrets opened: for other services only ({@code GET /internal/squad/{id}}). */
    public SquadView getWithSecrets(String orgId, UUID id) {
        return view(owned(orgId, id), Documents.Secrets.OPENED);
    }

    public List<SquadView> list(String orgId, ListParams params) {
        return ListQuery.list(squads, orgId, params).stream().map(this::view).toList();
    }

    /**
     * Applies a PATCH the way assistants are patched; {@code members}, when given, replaces the members. The
     * members' references are checked as a create checks them when the patch gives members; otherwise the tools their
     * inline assistants name are still checked (the one reference that can go while a squad names it: tools are
     * protected from deletion by stored assistants only), so a PATCH never stores what a POST of the same squad
     * would refuse, and its 400 names what to replace.
     */
    public SquadView update(String orgId, UUID id, ObjectNode patch) {
        SquadBody preview = patched(owned(orgId, id), patch);
        boolean membersChange = patch.has("members");
        if (membersChange) {
            requireKnownReferences(orgId, preview);
        } else {
            List<String> problems = unknownTools(orgId, preview);
            if (!problems.isEmpty()) {
                throw ApiException.invalid(problems);
            }
        }
        return QuarkusTransaction.requiringNew().call(() -> {
            Squad squad = squads.requireOwnedForChange(orgId, id, RESOURCE);
            SquadBody body = patched(squad, patch);
            if (membersChange) {
                squads.recordMemberAssistants(orgId, squad.id, lockMemberAssistants(orgId, body));
            }
            WrittenDocument written = documents.written(body, SECRETS, squad.sealingContext());
            squad.document = written.stored();
            documents.storeAnswer(squad, written, SquadBody.class);
            squad.touch();
            return view(squad, body);
        });
    }

    public SquadView delete(String orgId, UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> {
            // Locked first: of two concurrent deletes the second then finds nothing and answers 404.
            Squad squad = squads.requireOwnedForChange(orgId, id, RESOURCE);
            SquadView deleted = view(squad);
            squads.delete(squad);
            return deleted;
        });
    }

    private void requireKnownReferences(String orgId, SquadBody body) {
        List<String> problems = new ArrayList<>(unknownAssistants(orgId, body, assistants::existing));
        List<FileReferences.Reference> references = new ArrayList<>();
        for (int i = 0; i < body.members().size(); i++) {
            SquadMember member = body.members().get(i);
            references.addAll(FileReferences.in("members." + i + ".assistant.", member.assistant()));
            references.addAll(FileReferences.in("members." + i + ".assistantOverrides.", member.assistantOverrides()));
        }
        problems.addAll(unknownTools(orgId, body));
        problems.addAll(files.problems(orgId, references));
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
    }

    /**
     * One message per {@code model.toolIds} entry of the members' inline assistants and overrides that names no tool
     * of the organisation (a call checks them again when it freezes them).
     */
    private List<String> unknownTools(String orgId, SquadBody body) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < body.members().size(); i++) {
            SquadMember member = body.members().get(i);
            for (var named : java.util.Arrays.asList(member.assistant(), member.assistantOverrides())) {
                if (named != null && named.model != null) {
                    String where = "members." + i + (named == member.assistant() ? ".assistant." : ".assistantOverrides.");
                    problems.addAll(ToolService.unknownTools(where, named.model.toolIds(),
                            asked -> tools.existing(orgId, asked)));
                }
            }
        }
        return problems;
    }

    /** The stored assistants the members name, locked against deletion; a 400 if one has gone since the check. */
    private Set<UUID> lockMemberAssistants(String orgId, SquadBody body) {
        List<String> gone = unknownAssistants(orgId, body, assistants::lockExisting);
        if (!gone.isEmpty()) {
            throw ApiException.invalid(gone);
        }
        return memberAssistantIds(body);
    }

    /** One message per member whose assistantId names no assistant of the organisation; one query for all members. */
    private static List<String> unknownAssistants(String orgId, SquadBody body,
            BiFunction<String, Collection<UUID>, Set<UUID>> existing) {
        Set<UUID> found = existing.apply(orgId, memberAssistantIds(body));
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < body.members().size(); i++) {
            String assistantId = body.members().get(i).assistantId();
            if (assistantId == null) {
                continue;
            }
            Optional<UUID> uuid = Ids.parse(assistantId);
            if (uuid.isEmpty() || !found.contains(uuid.get())) {
                problems.add("members." + i + ".assistantId refers to an unknown assistant: " + assistantId);
            }
        }
        return problems;
    }

    private static Set<UUID> memberAssistantIds(SquadBody body) {
        Set<UUID> ids = new LinkedHashSet<>();
        for (SquadMember member : body.members()) {
            if (member.assistantId() != null) {
                Ids.parse(member.assistantId()).ifPresent(ids::add);
            }
        }
        return ids;
    }

    private Squad owned(String orgId, UUID id) {
        return squads.requireOwned(orgId, id, RESOURCE);
    }

    private SquadBody patched(Squad squad, ObjectNode patch) {
        return documents.patched(squad.document, patch, SquadBody.class, SECRETS, squad.sealingContext());
    }

    private SquadView view(Squad squad) {
        return view(squad, Documents.Secrets.LEFT_OUT);
    }

    private SquadView view(Squad squad, Documents.Secrets shown) {
        Documents.Answer<SquadBody> answer = documents.answer(squad, SquadBody.class, SECRETS, shown);
        return new SquadView(squad.id.toString(), squad.orgId, squad.createdAt, squad.updatedAt,
                answer.value() == null ? null : answer.value().name(),
                answer.value() == null ? null : answer.value().members(), answer.stored());
    }

    /** What a write answers: the typed body, unless it holds secrets (write-only: then the stored text, without them). */
    private SquadView view(Squad squad, SquadBody body) {
        if (Documents.holdsSealed(squad.document)) {
            return view(squad);
        }
        return new SquadView(squad.id.toString(), squad.orgId, squad.createdAt, squad.updatedAt, body.name(),
                body.members());
    }

    static ApiException notFound() {
        return ApiException.notFound(RESOURCE);
    }
}
