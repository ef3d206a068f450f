package dev.voiceplane.runtime.client;

import dev.voiceplane.contracts.file.FileServiceApi;
import dev.voiceplane.contracts.file.PassageSearch;
import dev.voiceplane.contracts.file.Passages;
import dev.voiceplane.kit.client.Peer;
import dev.voiceplane.kit.client.PeerServices;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * file-service's knowledge-base search ({@code POST /internal/file/search}, docs/files.md) through the kit's peer
 * policy. Blocking: called from worker threads, never on a call's event loop; the conversation holds its own
 * deadline over it ({@code dev.voiceplane.runtime.conversation.Knowledge}).
 */
@ApplicationScoped
public class KnowledgeSearch {

    /** The peer policy's name: {@code voice.peer.file-service-search.*} tunes it. */
    public static final String PEER = "file-service-search";

    private final Peer<FileServiceApi> files;

    public KnowledgeSearch(@RestClient FileServiceClient files, PeerServices peers) {
        // A policy (and circuit breaker) of its own: searches that fail or time out, which a turn survives, must not
        // open the breaker the call's recordings go through (found by RecordingThroughFakesTest, 2026-11-26).
        this.files = peers.client(PEER, files);
    }

    /** The best passages' texts for the caller's words, best first. */
    public List<String> passages(String orgId, List<String> fileIds, String query, int topK) {
        String bounded = query.length() > PassageSearch.MAX_QUERY
                ? query.substring(query.length() - PassageSearch.MAX_QUERY) : query;
        Passages answer = files.call(api -> api.search(orgId, new PassageSearch(fileIds, bounded, topK)),
                "so the knowledge base cannot be searched");
        return answer == null || answer.passages() == null ? List.of()
                : answer.passages().stream().map(Passages.Passage::text).toList();
    }
}
