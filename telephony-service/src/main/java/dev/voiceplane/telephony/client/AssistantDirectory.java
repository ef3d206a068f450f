package dev.voiceplane.telephony.client;

import dev.voiceplane.contracts.assistant.AssistantServiceApi;
import dev.voiceplane.kit.client.Peer;
import dev.voiceplane.kit.client.PeerServices;
import dev.voiceplane.kit.lookup.IdLookup;
import dev.voiceplane.kit.lookup.IdLookupResult;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** Whether an id names an assistant of an organisation, as assistant-service knows it (the kit's peer policy). */
@Startup
@ApplicationScoped
public class AssistantDirectory {

    public static final String PEER = AssistantServiceApi.PEER;

    private final Peer<AssistantServiceApi> assistants;

    public AssistantDirectory(@RestClient AssistantServiceClient api, PeerServices peers) {
        this.assistants = peers.client(PEER, api);
    }

    public boolean exists(String orgId, String assistantId) {
        IdLookupResult answer = assistants.call(api -> api.lookup(orgId, new IdLookup(List.of(assistantId))),
                "so assistantId cannot be checked");
        return answer != null && answer.found() != null && answer.found().contains(assistantId);
    }
}
