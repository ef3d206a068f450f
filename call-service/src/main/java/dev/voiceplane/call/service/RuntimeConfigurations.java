package dev.voiceplane.call.service;

import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.RuntimeConfiguration;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.repository.CallDocuments;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** What the voice runtime runs a call with ({@code GET /internal/call/{id}/runtime}, docs/calls.md). */
@ApplicationScoped
public class RuntimeConfigurations {

    private final CallRepository calls;
    private final CallDocuments documents;
    private final Configurations configurations;
    private final CallViews views;
    private final ObjectMapper json;

    public RuntimeConfigurations(CallRepository calls, CallDocuments documents, Configurations configurations,
            CallViews views, ObjectMapper json) {
        this.calls = calls;
        this.documents = documents;
        this.configurations = configurations;
        this.views = views;
        this.json = json;
    }

    /**
     * Attaches the voice runtime to a live call and answers what it runs with. Once per call: a second attachment
     * (a replayed or shared media token) and an ended call are refused with 409, so one call's media is never
     * held twice.
     */
    public RuntimeConfiguration attach(String orgId, UUID id) {
        QuarkusTransaction.requiringNew().run(() -> {
            Call call = calls.requireOwnedForChange(orgId, id, CallManagement.RESOURCE);
            if (call.ended()) {
                throw ApiException.conflict("the call has ended; no runtime can attach to it");
            }
            if (call.runtimeAttachedAt != null) {
                throw ApiException.conflict("a voice runtime attached to the call already");
            }
            call.runtimeAttachedAt = OrgScopedEntity.now();
            call.touch();
        });
        return of(orgId, id);
    }

    public RuntimeConfiguration of(String orgId, UUID id) {
        Call call = calls.requireOwned(orgId, id, CallManagement.RESOURCE);
        CallDocuments.Stored stored = documents.read(orgId, id);
        ObjectNode configuration = configurations.read(stored.configuration(), call.sealingContext());
        FrozenConfiguration frozen = configurations.frozen(configuration);
        ObjectNode assistant = AssistantFreezing.withTools(configurations.effectiveAssistant(configuration),
                frozen.tools());
        ObjectNode squad = null;
        Set<String> providers = new LinkedHashSet<>();
        providers.addAll(AssistantSettings.of(assistant).providers());
        if (frozen.squad().isPresent()) {
            squad = json.createObjectNode();
            ArrayNode members = squad.putArray("members");
            for (SquadMember member : frozen.squad().get()) {
                ObjectNode memberAssistant = AssistantFreezing.withTools(configurations.member(configuration, member),
                        frozen.tools());
                providers.addAll(AssistantSettings.of(memberAssistant).providers());
                ObjectNode entry = members.addObject();
                entry.set("assistant", memberAssistant);
                member.assistantDestinations().ifPresent(destinations -> entry.set("assistantDestinations", destinations));
                ObjectNode values = memberVariables(configuration, member);
                if (!values.isEmpty()) {
                    entry.set("variableValues", values);
                }
            }
        }
        PhoneNumberConfiguration number = frozen.phoneNumber().map(PhoneNumberConfiguration::withoutSecret).orElse(null);
        List<String> credentialProviders = new ArrayList<>(providers);
        return new RuntimeConfiguration(views.view(call, stored), assistant, squad,
                configurations.variableValues(configuration), number, credentialProviders);
    }

    /**
     * The variables a member's prompts are filled from: its own overrides' {@code variableValues}, then the call's
     * (which win), as the member's assistant has its overrides and then the call's applied.
     */
    private ObjectNode memberVariables(ObjectNode configuration, SquadMember member) {
        ObjectNode values = json.createObjectNode();
        member.variableValues().ifPresent(values::setAll);
        if (configuration.path("assistantOverrides").path("variableValues") instanceof ObjectNode call) {
            values.setAll(call);
        }
        return values;
    }
}
