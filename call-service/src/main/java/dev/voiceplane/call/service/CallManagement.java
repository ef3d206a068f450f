package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallView;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.EndedReason;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.list.ListQuery;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** Reading, renaming, ending and deleting calls of the caller's organisation. */
@ApplicationScoped
public class CallManagement {

    static final String RESOURCE = "Call";
    /** The list filters of {@code GET /call} (docs/api-reference.md, "Lists") and the columns they compare. */
    public static final Set<String> FILTERS = Set.of("assistantId", "id", "phoneNumberId");
    private static final Map<String, ListQuery.EqualityColumn> COLUMNS = Map.of(
            "assistantId", new ListQuery.EqualityColumn("assistantId", value -> value),
            "phoneNumberId", new ListQuery.EqualityColumn("phoneNumberId", value -> value),
            "id", new ListQuery.EqualityColumn("id", value -> Ids.parse(value).orElse(null)));

    private final CallRepository calls;
    private final CallViews views;
    private final Details details;
    private final Lifecycle lifecycle;
    private final CarrierLines lines;
    private final EndOfCall endOfCall;

    public CallManagement(CallRepository calls, CallViews views, Details details, Lifecycle lifecycle,
            CarrierLines lines, EndOfCall endOfCall) {
        this.calls = calls;
        this.views = views;
        this.details = details;
        this.lifecycle = lifecycle;
        this.lines = lines;
        this.endOfCall = endOfCall;
    }

    public CallView get(String orgId, UUID id) {
        return views.view(calls.requireOwned(orgId, id, RESOURCE));
    }

    public List<CallView> list(String orgId, ListParams params) {
        return views.views(orgId, ListQuery.list(calls, orgId, params, COLUMNS));
    }

    /** {@code name} and {@code metadata}: present replaces, {@code null} clears, absent stays. */
    public CallView update(String orgId, UUID id, ObjectNode patch) {
        List<String> problems = new ArrayList<>();
        for (var field : patch.properties()) {
            JsonNode value = field.getValue();
            switch (field.getKey()) {
                case "name" -> {
                    if (!value.isNull() && !value.isTextual()) {
                        problems.add("name must be a string");
                    } else if (value.isTextual() && value.asText().length() > 40) {
                        problems.add("name must be shorter than or equal to 40 characters");
                    }
                }
                case "metadata" -> {
                    if (!value.isNull() && !value.isObject()) {
                        problems.add("metadata must be an object");
                    }
                }
                default -> problems.add("property " + field.getKey() + " should not exist");
            }
        }
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
        return QuarkusTransaction.requiringNew().call(() -> {
            Call call = calls.requireOwnedForChange(orgId, id, RESOURCE);
            if (patch.has("name")) {
                call.name = patch.get("name").isNull() ? null : patch.get("name").asText();
            }
            if (patch.has("metadata")) {
                ObjectNode row = details.read(call);
                if (patch.get("metadata").isNull()) {
                    row.remove("metadata");
                } else {
                    row.set("metadata", patch.get("metadata"));
                }
                details.write(call, row);
            }
            call.touch();
            return views.view(call);
        });
    }

    /**
     * Ends a live call on request ({@code manually-canceled}): the call is ended first (so nothing else moves it),
     * then the carrier call is hung up. Ending an ended call changes nothing.
     */
    public CallView end(String orgId, UUID id) {
        Call ended = QuarkusTransaction.requiringNew().call(() -> {
            Call call = calls.requireOwnedForChange(orgId, id, RESOURCE);
            return lifecycle.end(call, EndedReason.MANUALLY_CANCELED, OrgScopedEntity.now()) ? call : null;
        });
        if (ended != null) {
            lines.hangUp(orgId, id, ended.phoneNumberId, ended.sealingContext(), ended.phoneCallProviderId);
            endOfCall.finaliseIfReady(orgId, id, false);
        }
        return get(orgId, id);
    }

    /** Ends the call if it is live, then deletes it with its documents, events, pending messages and key. */
    public CallView delete(String orgId, UUID id) {
        end(orgId, id);
        return QuarkusTransaction.requiringNew().call(() -> {
            Call call = calls.requireOwnedForChange(orgId, id, RESOURCE);
            CallView deleted = views.view(call);
            calls.deleteCall(orgId, id);
            return deleted;
        });
    }
}
