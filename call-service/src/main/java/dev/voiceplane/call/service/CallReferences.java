package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallRequest;
import dev.voiceplane.call.api.InlinePhoneNumber;
import dev.voiceplane.call.client.Credentials;
import dev.voiceplane.call.client.Telephony;
import dev.voiceplane.call.domain.CallType;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.contracts.assistant.SquadMember;
import dev.voiceplane.contracts.catalog.Providers;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.lookup.IdLookup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * The first half of creating a call: the body checked and everything it names resolved against its services
 * (phone number, assistant or squad, tools), with no transaction open and nothing written, so a bad reference is the
 * client's 400 and a peer's outage a 503 before anything is stored. {@link CallAdmission} writes what this answers.
 */
@ApplicationScoped
public class CallReferences {

    /**
     * A call ready to be admitted: its type, frozen configuration, the settings of its effective assistant and its
     * number (or none).
     */
    public record Resolved(CallType type, ObjectNode configuration, AssistantSettings settings,
            PhoneNumberConfiguration phoneNumber) {
    }

    /** A UUID in any letter case; only the canonical lower-case form names a record (kit {@code Ids}). */
    private static final java.util.regex.Pattern UUID_TEXT = java.util.regex.Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final AssistantFreezing freezing;
    private final Telephony telephony;
    private final Credentials credentials;
    private final Configurations configurations;
    private final ObjectMapper json;

    public CallReferences(AssistantFreezing freezing, Telephony telephony, Credentials credentials,
            Configurations configurations, ObjectMapper json) {
        this.freezing = freezing;
        this.telephony = telephony;
        this.credentials = credentials;
        this.configurations = configurations;
        this.json = json;
    }

    public Resolved resolve(String orgId, CallCreation.Route route, CallRequest body) {
        CallType type = type(route, body);
        requireValid(route, type, body);
        ObjectNode configuration = json.createObjectNode();
        PhoneNumberConfiguration phoneNumber = null;
        if (body.phoneNumberId() != null) {
            phoneNumber = telephony.phoneNumber(orgId, body.phoneNumberId())
                    .orElseThrow(() -> ApiException.invalid("phoneNumberId " + body.phoneNumberId() + " does not exist"));
            configuration.set("phoneNumber", json.valueToTree(phoneNumber));
        } else if (body.phoneNumber() != null) {
            dev.voiceplane.contracts.telephony.InlinePhoneNumber inline = inlineNumber(orgId, body.phoneNumber());
            phoneNumber = InlinePhoneNumber.configuration(orgId, inline);
            configuration.set("phoneNumber", json.valueToTree(phoneNumber));
            configuration.set(Configurations.INLINE_PHONE_NUMBER, json.valueToTree(inline));
        }
        freezing.freeze(orgId, body, configuration);
        return new Resolved(type, configuration, AssistantSettings.of(configurations.effectiveAssistant(configuration)),
                phoneNumber);
    }

    /**
     * An inline number, checked as far as call-service can: its fields (400 with the {@code phoneNumber.} path) and,
     * for vonage, that its credential is one of the organisation's vonage credentials. Returns it normalised.
     */
    private dev.voiceplane.contracts.telephony.InlinePhoneNumber inlineNumber(String orgId, InlinePhoneNumber number) {
        List<String> problems = number.problems();
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
        if (InlinePhoneNumber.VONAGE.equals(number.carrier())) {
            String provider = credentials.provider(orgId, number.credentialId()).orElseThrow(() -> ApiException.invalid(
                    "phoneNumber.credentialId " + number.credentialId() + " does not exist"));
            if (!InlinePhoneNumber.VONAGE.equals(Providers.canonical(provider))) {
                throw ApiException.invalid("phoneNumber.credentialId " + number.credentialId() + " is not a vonage credential");
            }
        }
        return number.normalised();
    }

    private static CallType type(CallCreation.Route route, CallRequest body) {
        return switch (route) {
            case PHONE -> CallType.OUTBOUND;
            case WEB -> CallType.WEB;
            case CALL -> body.customer() != null || body.customerId() != null || body.phoneNumberId() != null
                    || body.phoneNumber() != null ? CallType.OUTBOUND : CallType.WEB;
        };
    }

    private static void requireValid(CallCreation.Route route, CallType type, CallRequest body) {
        int named = (body.assistantId() != null ? 1 : 0) + (body.assistant() != null ? 1 : 0)
                + (body.squadId() != null ? 1 : 0) + (body.squad() != null ? 1 : 0);
        if (named != 1) {
            throw ApiException.invalid(CallCreation.NEED_ONE_ASSISTANT);
        }
        List<String> problems = new ArrayList<>();
        if (type == CallType.OUTBOUND) {
            if (body.phoneNumber() != null && body.phoneNumberId() != null) {
                problems.add("Need Either `phoneNumber` Or `phoneNumberId`, not both.");
            } else if (body.phoneNumber() == null && body.phoneNumberId() == null) {
                problems.add("Need Either `phoneNumber` Or `phoneNumberId`.");
            }
            if (body.customer() == null || body.customer().number() == null) {
                problems.add("customer.number must be given for a phone call");
            }
        } else if (route == CallCreation.Route.WEB) {
            if (body.phoneNumberId() != null) {
                problems.add("property phoneNumberId should not exist");
            }
            if (body.phoneNumber() != null) {
                problems.add("property phoneNumber should not exist");
            }
        }
        requireIds(body, problems);
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
    }

    /**
     * Every id the call names is checked here, before any service is asked about it: a value that is not a UUID
     * (a 100 KB string, say) is the client's 400, never a peer's refusal reported as an outage. Non-canonical
     * spellings of a UUID (upper case) pass and are answered "does not exist" by the lookup, as before.
     */
    private static void requireIds(CallRequest body, List<String> problems) {
        requireId("assistantId", body.assistantId(), problems);
        requireId("squadId", body.squadId(), problems);
        requireId("phoneNumberId", body.phoneNumberId(), problems);
        requireToolIds("assistant.", body.assistant(), problems);
        requireToolIds("assistantOverrides.", body.assistantOverrides(), problems);
        if (body.squad() != null && body.squad().members() != null) {
            for (int i = 0; i < body.squad().members().size(); i++) {
                SquadMember member = body.squad().members().get(i);
                if (member != null) {
                    requireId("squad.members." + i + ".assistantId", member.assistantId(), problems);
                    requireToolIds("squad.members." + i + ".assistant.", member.assistant(), problems);
                    requireToolIds("squad.members." + i + ".assistantOverrides.", member.assistantOverrides(),
                            problems);
                }
            }
        }
    }

    /**
     * An inline {@code model.toolIds} names at most {@value IdLookup#MAX_IDS} tools, the most assistant-service
     * resolves in one request: a longer list is the client's 400 naming the limit, before any service is asked.
     */
    private static void requireToolIds(String path, AssistantBody assistant, List<String> problems) {
        if (assistant != null && assistant.model != null && assistant.model.toolIds() != null
                && assistant.model.toolIds().size() > IdLookup.MAX_IDS) {
            problems.add(path + "model.toolIds must contain no more than " + IdLookup.MAX_IDS + " elements (it has "
                    + assistant.model.toolIds().size() + ")");
        }
    }

    private static void requireId(String field, String value, List<String> problems) {
        if (value != null && !UUID_TEXT.matcher(value).matches()) {
            problems.add(field + " must be a UUID");
        }
    }
}
