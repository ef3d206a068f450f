package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallView;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.EndedReason;
import dev.voiceplane.call.domain.WireValue;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.list.ListQuery;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.kit.persistence.NotFound;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/** Reading, renaming, ending and deleting calls of the caller's organisation. */
@ApplicationScoped
public class CallManagement {

    private static final Logger LOG = Logger.getLogger(CallManagement.class);

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

    /** The SQL column of each list filter and how its value is bound, for lists read as stored. */
    private static final Map<String, Map.Entry<String, java.util.function.Function<String, Object>>> SQL_COLUMNS = Map.of(
            "assistantId", Map.entry("assistant_id", value -> value),
            "phoneNumberId", Map.entry("phone_number_id", value -> value),
            "id", Map.entry("id", value -> Ids.parse(value).orElse(null)));

    /**
     * A call as the API shows it. A row whose type, status or ended reason holds a text this version has no value for
     * (a hand edit, or a value a newer release wrote) cannot be read as an entity; its answer is given as stored
     * ({@link Call#AS_STORED}, a warning logged), so one such row does not make its read, or its organisation's list,
     * a 500. Nothing is written by a read.
     */
    public CallView get(String orgId, UUID id) {
        Call call;
        try {
            call = calls.requireOwned(orgId, id, RESOURCE);
        } catch (RuntimeException failure) {
            WireValue.Unknown unknown = WireValue.Unknown.in(failure).orElseThrow(() -> failure);
            LOG.warnf("call %s: %s; answered as stored", id, unknown.getMessage());
            call = calls.findAsStored(orgId, id).orElseThrow(() -> new NotFound(RESOURCE));
        }
        return views.view(call);
    }

    public List<CallView> list(String orgId, ListParams params) {
        List<Call> found;
        try {
            found = ListQuery.list(calls, orgId, params, COLUMNS);
        } catch (RuntimeException failure) {
            WireValue.Unknown unknown = WireValue.Unknown.in(failure).orElseThrow(() -> failure);
            LOG.warnf("a call of organisation %s: %s; its list answered as stored", orgId, unknown.getMessage());
            found = calls.listAsStored(orgId, params, SQL_COLUMNS);
        }
        return views.views(orgId, found);
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
