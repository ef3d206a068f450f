package dev.voiceplane.file.service;

import dev.voiceplane.file.api.FileTextView;
import dev.voiceplane.file.api.FileUpdate;
import dev.voiceplane.file.api.FileView;
import dev.voiceplane.file.domain.FileText;
import dev.voiceplane.file.domain.StoredFile;
import dev.voiceplane.file.extract.DetectedType;
import dev.voiceplane.file.extract.Extraction;
import dev.voiceplane.file.extract.TextExtractor;
import dev.voiceplane.file.extract.TypeDetector;
import dev.voiceplane.file.extract.UnsupportedContent;
import dev.voiceplane.file.repository.FileRepository;
import dev.voiceplane.file.repository.FileTextRepository;
import dev.voiceplane.file.store.FileStore;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.list.ListQuery;
import dev.voiceplane.kit.lookup.IdLookupResult;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Use cases of files, each scoped to the caller's organisation.
 *
 * <p>An upload is checked (size, type from the content) and its text extracted before anything is stored; then its
 * bytes are written to the FileStore, and only then its row, so a file that is listed always has its bytes. Around
 * the write, a {@code blob_cleanup} entry names the bytes: removed with the row's insert, or used to delete the
 * bytes when the insert fails; if the service dies in between, {@link BlobSweeper} deletes them later.
 */
@ApplicationScoped
public class FileService {

    private static final Logger LOG = Logger.getLogger(FileService.class);

    private final FileRepository files;
    private final FileTextRepository texts;
    private final FileRecords records;
    private final FileStore store;
    private final TypeDetector detector;
    private final TextExtractor extractor;
    private final FileSettings settings;
    private final UploadGate gate;

    public FileService(FileRepository files, FileTextRepository texts, FileRecords records, FileStore store,
            TypeDetector detector, TextExtractor extractor, FileSettings settings, UploadGate gate) {
        this.files = files;
        this.texts = texts;
        this.records = records;
        this.store = store;
        this.detector = detector;
        this.extractor = extractor;
        this.settings = settings;
        this.gate = gate;
    }

    /**
     * @param content the uploaded part as the HTTP layer wrote it to disk
     * @throws ApiException 503 when the upload gets no turn in time (UploadGate); nothing is stored then
     */
    public FileView upload(String orgId, Path content, String clientName) {
        try (UploadGate.Turn turn = gate.enter()) {
            return process(orgId, content, clientName);
        }
    }

    private FileView process(String orgId, Path content, String clientName) {
        long size = size(content);
        if (size == 0) {
            throw invalidFile("the file is empty");
        }
        if (size > settings.maxSize()) {
            throw ApiException.tooLarge("file is too large (at most " + settings.maxSize() + " bytes)");
        }
        String originalName = FileNames.original(clientName);
        DetectedType type;
        try {
            type = detector.detect(content, originalName);
        } catch (UnsupportedContent e) {
            throw invalidFile(e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the uploaded part", e);
        }
        Extraction extraction = extractor.extract(content, type);
        if (!extraction.isIndexed()) {
            LOG.debugf("a %s upload is not indexed: %s", type.mimetype(), extraction.notIndexedBecause());
        }

        StoredFile file = new StoredFile();
        file.stampCreated(orgId, null);
        file.originalName = originalName;
        file.name = FileNames.name(originalName);
        file.bytes = size;
        file.mimetype = type.mimetype();
        file.status = extraction.isIndexed() ? StoredFile.INDEXED : StoredFile.NOT_INDEXED;
        file.bucket = store.bucket();
        file.storageKey = orgId + "/" + file.id;

        records.expectBytes(file.storageKey, Instant.now().plus(settings.orphanGrace()));
        try (InputStream in = Files.newInputStream(content)) {
            store.write(file.storageKey, in, size);
            records.create(file, extraction.text());
        } catch (IOException | RuntimeException e) {
            removeBytes(file.storageKey);
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new UncheckedIOException("cannot store the file", (IOException) e);
        }
        return view(file);
    }

    public List<FileView> list(String orgId, ListParams params) {
        return ListQuery.list(files, orgId, params).stream().map(this::view).toList();
    }

    public FileView get(String orgId, UUID id) {
        return view(owned(orgId, id));
    }

    public FileView update(String orgId, UUID id, FileUpdate update) {
        return view(records.rename(orgId, id, update.name()));
    }

    public FileView delete(String orgId, UUID id) {
        StoredFile file = records.delete(orgId, id);
        removeBytes(file.storageKey);
        return view(file);
    }

    /** The file's stored type and size, and a writer of its bytes; 404 when the organisation has no such file. */
    public Content content(String orgId, UUID id) {
        StoredFile file = owned(orgId, id);
        return new Content(file.mimetype, file.bytes, file.originalName, target -> {
            if (!store.copyTo(file.storageKey, target)) {
                // Deleted while it was being read: the response ends short, which the client sees as an error.
                throw new IOException("the bytes of " + file.storageKey + " are gone");
            }
        });
    }

    public FileTextView text(String orgId, UUID id) {
        StoredFile file = owned(orgId, id);
        String text = texts.findOwned(orgId, id).map(stored -> stored.text).orElse(null);
        return new FileTextView(file.id.toString(), file.status, file.mimetype, text);
    }

    /** Which of these ids are files of the organisation: in the order asked, each once; non-UUIDs name nothing. */
    public IdLookupResult lookup(String orgId, List<String> ids) {
        return IdLookupResult.of(ids, asked -> files.existing(orgId, asked));
    }

    /** Deletes bytes now; when that fails its cleanup entry stays, and the sweep retries. */
    private void removeBytes(String storageKey) {
        try {
            store.delete(storageKey);
            records.forget(storageKey);
        } catch (IOException | RuntimeException e) {
            LOG.warnf("could not remove %s now, the sweep will: %s", storageKey, String.valueOf(e));
        }
    }

    private StoredFile owned(String orgId, UUID id) {
        return files.requireOwned(orgId, id, FileRecords.RESOURCE);
    }

    private FileView view(StoredFile file) {
        return FileView.of(file, settings.publicUrl());
    }

    private static long size(Path content) {
        try {
            return Files.size(content);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the uploaded part", e);
        }
    }

    static ApiException invalidFile(String reason) {
        return ApiException.invalid("Invalid file: " + reason);
    }

    /** A file's bytes, ready to be streamed. */
    public record Content(String mimetype, long bytes, String originalName, Writer writer) {
        public interface Writer {
            void writeTo(OutputStream target) throws IOException;
        }
    }
}
