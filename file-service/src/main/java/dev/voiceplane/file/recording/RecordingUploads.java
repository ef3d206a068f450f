package dev.voiceplane.file.recording;

import dev.voiceplane.file.api.FileView;
import dev.voiceplane.file.domain.StoredFile;
import dev.voiceplane.file.repository.RecordingUploadRepository;
import dev.voiceplane.file.repository.RecordingUploadRepository.Upload;
import dev.voiceplane.file.service.FileNames;
import dev.voiceplane.file.service.FileRecords;
import dev.voiceplane.file.service.FileSettings;
import dev.voiceplane.file.store.FileStore;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Recordings the voice runtime streams in while a call goes on (docs/files.md, "Recordings"). An upload is started
 * with its format, takes its audio in numbered parts (each at most {@code voice.file.recording.max-part}, received
 * whole and stored as one row), and is completed once: the WAV header — whose sizes are known only then — and the
 * parts are streamed into the FileStore one part at a time, and the file row is written. A call that never completes
 * (the runtime died) leaves no file: nothing is readable before completion, so no truncated recording can pass for a
 * whole one, and the sweep removes its parts after {@code voice.file.recording.abandon-after}.
 *
 * <p>Each step runs in a transaction of its own ({@link RecordingUploadRepository}, plain JDBC outside JTA) that
 * locks the upload's row: a part's append so the parts stay in order under retries; completion holds that lock
 * while it copies, so a repeated completion waits and then answers the same file.
 */
@ApplicationScoped
public class RecordingUploads {

    private static final Logger LOG = Logger.getLogger(RecordingUploads.class);
    static final String RESOURCE = "Recording upload";
    private static final Set<Integer> RATES = Set.of(8000, 16000, 24000);

    private final RecordingUploadRepository uploads;
    private final FileStore store;
    private final FileRecords records;
    private final FileSettings settings;
    private final int maxPart;
    private final long maxSize;
    private final Duration abandonAfter;

    public RecordingUploads(RecordingUploadRepository uploads, FileStore store, FileRecords records,
            FileSettings settings,
            @ConfigProperty(name = "voice.file.recording.max-part") MemorySize maxPart,
            @ConfigProperty(name = "voice.file.recording.max-size") MemorySize maxSize,
            @ConfigProperty(name = "voice.file.recording.abandon-after") Duration abandonAfter) {
        this.uploads = uploads;
        this.store = store;
        this.records = records;
        this.settings = settings;
        this.maxPart = (int) Math.min(Integer.MAX_VALUE, maxPart.asLongValue());
        this.maxSize = Math.min(Wav.MAX_DATA, maxSize.asLongValue());
        this.abandonAfter = abandonAfter;
    }

    public RecordingUploadView start(String orgId, RecordingStart body) {
        if (body.channels() != 1 && body.channels() != 2) {
            throw ApiException.invalid("channels must be 1 or 2");
        }
        if (!RATES.contains(body.sampleRate())) {
            throw ApiException.invalid("sampleRate must be one of 8000, 16000, 24000");
        }
        String name = FileNames.original(body.name());
        UUID id = dev.voiceplane.kit.persistence.Ids.newId();
        uploads.insert(orgId, id, name, body.channels(), body.sampleRate(), OrgScopedEntity.now());
        return new RecordingUploadView(id.toString(), 0, 0);
    }

    /**
     * Appends part {@code seq}: it must be the next one; a part already stored (a retry) changes nothing and answers
     * the upload as it is.
     */
    public RecordingUploadView append(String orgId, UUID id, int seq, byte[] audio) {
        if (audio == null || audio.length == 0) {
            throw ApiException.invalid("a part holds audio: the body is empty");
        }
        if (audio.length > maxPart) {
            throw ApiException.tooLarge("a part is at most " + maxPart + " bytes");
        }
        return uploads.inTransaction(transaction -> {
            Upload upload = locked(transaction, orgId, id);
            if (upload.fileId() != null) {
                throw ApiException.conflict("the recording is complete: it takes no more parts");
            }
            if (audio.length % (2 * upload.channels()) != 0) {
                throw ApiException.invalid("a part holds whole frames of 16-bit samples (" + 2 * upload.channels()
                        + " bytes each for " + upload.channels() + " channel(s)), not " + audio.length + " bytes");
            }
            if (seq < upload.parts()) {
                return view(upload);
            }
            if (seq > upload.parts()) {
                throw ApiException.conflict("part " + upload.parts() + " is expected next, not part " + seq);
            }
            if (upload.bytes() + audio.length > maxSize) {
                throw ApiException.tooLarge("the recording is too large (at most " + maxSize + " bytes)");
            }
            transaction.addPart(orgId, id, seq, audio);
            return new RecordingUploadView(id.toString(), upload.parts() + 1, upload.bytes() + audio.length);
        });
    }

    /**
     * Writes the recording as a WAV file and answers it; a repeated completion answers the same file. The bytes go to
     * the FileStore first (under a cleanup entry, as every upload's), then, in one transaction, the file row, the
     * upload's link to it and the removal of its parts.
     */
    public FileView complete(String orgId, UUID id) {
        return uploads.inTransaction(transaction -> {
            Upload upload = locked(transaction, orgId, id);
            if (upload.fileId() != null) {
                // Completed, then its file was deleted: the recording is gone.
                StoredFile existing = transaction.file(orgId, upload.fileId())
                        .orElseThrow(() -> ApiException.notFound(RESOURCE));
                return FileView.of(existing, settings.publicUrl());
            }
            StoredFile file = new StoredFile();
            file.stampCreated(orgId, null);
            file.originalName = upload.name();
            file.name = FileNames.name(upload.name());
            file.bytes = Wav.HEADER + upload.bytes();
            file.mimetype = "audio/wav";
            file.status = StoredFile.NOT_INDEXED;
            file.bucket = store.bucket();
            file.storageKey = orgId + "/" + file.id;
            records.expectBytes(file.storageKey, Instant.now().plus(settings.orphanGrace()));
            try (InputStream wav = new SequenceInputStream(
                    new ByteArrayInputStream(Wav.header(upload.channels(), upload.sampleRate(), upload.bytes())),
                    uploads.parts(orgId, id, upload.parts()))) {
                store.write(file.storageKey, wav, file.bytes);
                transaction.complete(id, file);
            } catch (IOException e) {
                discard(file.storageKey);
                throw new UncheckedIOException("cannot store the recording", e);
            } catch (RuntimeException e) {
                discard(file.storageKey);
                throw e;
            }
            LOG.debugf("recording upload %s completed as file %s (%d bytes)", id, file.id, file.bytes);
            return FileView.of(file, settings.publicUrl());
        });
    }

    /** Bytes written for a completion that failed; if they cannot go now, the cleanup entry makes the sweep do it. */
    private void discard(String storageKey) {
        try {
            store.delete(storageKey);
            records.forget(storageKey);
        } catch (IOException | RuntimeException e) {
            LOG.warnf("could not remove %s now, the sweep will: %s", storageKey, String.valueOf(e));
        }
    }

    /** Discards an upload that will not be completed (its parts go with it). */
    public RecordingUploadView abandon(String orgId, UUID id) {
        return uploads.inTransaction(transaction -> {
            Upload upload = locked(transaction, orgId, id);
            if (upload.fileId() != null) {
                throw ApiException.conflict("the recording is complete: delete its file instead");
            }
            transaction.delete(orgId, id);
            return view(upload);
        });
    }

    /** Removes uploads untouched for {@code abandon-after}: abandoned mid-call, or completed long ago. */
    @Scheduled(every = "${voice.file.sweep-every}", delayed = "${voice.file.sweep-every}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledSweep() {
        try {
            int removed = sweep(Instant.now().minus(abandonAfter));
            if (removed > 0) {
                LOG.infof("removed %d recording uploads untouched since before %s", removed, abandonAfter);
            }
        } catch (RuntimeException e) {
            LOG.warnf("the recording upload sweep failed, it runs again later: %s", String.valueOf(e));
        }
    }

    /** Removes every upload last touched before {@code before}; how many. */
    public int sweep(Instant before) {
        return uploads.deleteUntouchedSince(before);
    }

    private static Upload locked(RecordingUploadRepository.Transaction transaction, String orgId, UUID id) {
        return transaction.lock(orgId, id).orElseThrow(() -> ApiException.notFound(RESOURCE));
    }

    private static RecordingUploadView view(Upload upload) {
        return new RecordingUploadView(upload.id().toString(), upload.parts(), upload.bytes());
    }
}
