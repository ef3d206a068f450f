package dev.voiceplane.telephony.client;

import dev.voiceplane.kit.client.PeerService;
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

    public static final String PEER = "assistant-service";

    private final AssistantServiceApi assistants;
    private final PeerService peer;

    public AssistantDirectory(@RestClient AssistantServiceApi assistants, PeerServices peers) {
        this.assistants = assistants;
        this.peer = peers.named(PEER);
    }

    public boolean exists(String orgId, String assistantId) {
        IdLookupResult answer = peer.call(() -> assistants.lookup(orgId, new IdLookup(List.of(assistantId))),
                "so assistantId cannot be checked");
        return answer != null && answer.found() != null && answer.found().contains(assistantId);
    }
}
