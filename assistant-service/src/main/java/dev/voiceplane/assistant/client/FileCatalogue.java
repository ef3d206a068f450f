package dev.voiceplane.assistant.client;

import dev.voiceplane.contracts.file.FileServiceApi;
import dev.voiceplane.kit.client.PeerFailure;
import dev.voiceplane.kit.client.Peer;
import dev.voiceplane.kit.client.PeerServices;
import dev.voiceplane.kit.lookup.IdLookup;
import dev.voiceplane.kit.lookup.IdLookupResult;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Which files exist in an organisation, as file-service knows them, asked under the kit's peer-service policy
 * (timeout per attempt, retries on connection errors and 5xx only, a circuit breaker named {@value #CIRCUIT});
 * whatever fails ends as a 503 in the error shape, before anything is written. Tunable without a rebuild:
 * {@code voice.peer.file-service.timeout=...} (see {@link PeerServices}).
 */
@Startup // its circuit breaker exists (and can be watched and reset) from the start
@ApplicationScoped
public class FileCatalogue {

    public static final String CIRCUIT = FileServiceApi.PEER;
    private static final String CONSEQUENCE = "so the knowledge base files cannot be checked";

    private final Peer<FileServiceApi> files;

    public FileCatalogue(@RestClient FileServiceClient api, PeerServices peers) {
        this.files = peers.client(CIRCUIT, api);
    }

    /** The ids among {@code ids} that are files of the organisation. */
    public Set<String> existing(String orgId, List<String> ids) {
        Set<String> found = new HashSet<>();
        for (int start = 0; start < ids.size(); start += IdLookup.MAX_IDS) {
            IdLookup batch = new IdLookup(new ArrayList<>(ids.subList(start, Math.min(ids.size(), start + IdLookup.MAX_IDS))));
            IdLookupResult answer;
            try {
                answer = files.call(api -> api.lookup(orgId, batch), CONSEQUENCE);
            } catch (PeerFailure refused) {
                // file-service refusing a well-formed lookup is a deployment fault (token, version), not the client's.
                throw files.service().unavailable(CONSEQUENCE);
            }
            if (answer != null && answer.found() != null) {
                found.addAll(answer.found());
            }
        }
        found.retainAll(Set.copyOf(ids));
        return found;
    }
}
