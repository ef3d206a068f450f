package dev.voiceplane.runtime.recording;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.contracts.file.FileServiceApi;
import dev.voiceplane.runtime.client.FileServiceClient;
import dev.voiceplane.kit.client.Peer;
import dev.voiceplane.kit.client.PeerServices;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * file-service's recording upload (docs/files.md, "Recordings") through the kit's peer policy. Blocking: called
 * from worker threads only. A part is retried as it was (file-service takes a repeated part once).
 */
@ApplicationScoped
public class RecordingStore {

    private final Peer<FileServiceApi> files;
    private final String publicUrl;

    public RecordingStore(@RestClient FileServiceClient files, PeerServices peers,
            @ConfigProperty(name = "voice.runtime.public-url") String publicUrl) {
        this.files = peers.client(FileServiceApi.PEER, files);
        this.publicUrl = publicUrl.replaceAll("/+$", "");
    }

    String start(String orgId, String name, int channels, int rate) {
        return files.call(api -> api.startRecording(orgId, new FileServiceApi.RecordingStart(name, channels, rate)),
                "so the call is not recorded").id();
    }

    void part(String orgId, String id, int seq, byte[] audio) {
        files.call(api -> api.recordingPart(orgId, id, seq, audio), "so the recording is incomplete");
    }

    /** Completes the upload: the file's URL, which reads it with the organisation's API key. */
    String complete(String orgId, String id) {
        JsonNode file = files.call(api -> api.completeRecording(orgId, id), "so the recording is lost");
        String url = file.path("url").asText("");
        return url.startsWith("http://") || url.startsWith("https://") ? url
                : publicUrl + "/file/" + file.path("id").asText() + "/content";
    }

    void abandon(String orgId, String id) {
        files.call(api -> api.abandonRecording(orgId, id), "so its parts wait for file-service's sweep");
    }
}
