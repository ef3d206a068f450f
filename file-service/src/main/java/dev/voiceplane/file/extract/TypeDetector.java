package dev.voiceplane.file.extract;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.tika.detect.DefaultDetector;
import org.apache.tika.detect.Detector;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.mime.MediaType;
import org.apache.tika.mime.MediaTypeRegistry;
import org.apache.tika.mime.MimeTypes;
import org.jboss.logging.Logger;

/**
 * Finds the type of an upload from its bytes (Tika's magic numbers and container inspection: a DOCX is recognised
 * by its parts, not by its name). The client's Content-Type is never consulted; the file name only refines plain
 * text into a kind of text ({@code .md}, {@code .csv}, {@code .json}): bytes that are not text stay unsupported
 * whatever they are called.
 *
 * <p>Container inspection runs library code over the upload (POI opens a DOCX's package): if that fails with
 * anything but an I/O error, the type comes from the magic numbers and the name alone, so that a file a library
 * chokes on is refused or stored unindexed, never a 500.
 *
 * <p>Only Tika's detectors are loaded, not its default configuration: that would also construct every parser on the
 * class path (an Access database's, an Outlook archive's, ...), and keep them all in a native executable, where the
 * extractor uses five ({@link TextExtractor}).
 */
public class TypeDetector {

    private static final Logger LOG = Logger.getLogger(TypeDetector.class);

    private static final Map<MediaType, DetectedType.Reader> DOCUMENTS = Map.of(
            MediaType.application("pdf"), DetectedType.Reader.PDF,
            MediaType.application("vnd.openxmlformats-officedocument.wordprocessingml.document"), DetectedType.Reader.DOCX,
            MediaType.application("msword"), DetectedType.Reader.DOC,
            MediaType.text("html"), DetectedType.Reader.HTML,
            MediaType.application("xhtml+xml"), DetectedType.Reader.HTML);

    private final Detector detector;
    private final Detector magic;
    private final MediaTypeRegistry registry;

    public TypeDetector() {
        this(new DefaultDetector(MimeTypes.getDefaultMimeTypes()));
    }

    /** With another detector in front of the magic numbers (tests give one that fails). */
    TypeDetector(Detector detector) {
        MimeTypes types = MimeTypes.getDefaultMimeTypes();
        this.detector = detector;
        this.magic = types;
        this.registry = types.getMediaTypeRegistry();
    }

    public DetectedType detect(Path content, String fileName) throws IOException, UnsupportedContent {
        MediaType byContent = mediaType(content, null);
        DetectedType.Reader document = DOCUMENTS.get(byContent);
        if (document != null) {
            return new DetectedType(byContent.toString(), document);
        }
        if (!isText(byContent)) {
            throw new UnsupportedContent(byContent.equals(MediaType.OCTET_STREAM)
                    ? "the content is neither text nor a supported document (PDF, DOCX, DOC, HTML)"
                    : "type " + byContent + " is not supported: upload text (plain, Markdown, CSV, JSON, ...),"
                            + " HTML, PDF, DOCX or DOC");
        }
        // Text: the name may say which kind (Markdown, CSV, JSON), never turn it into something else.
        MediaType byName = fileName == null ? byContent : mediaType(content, fileName);
        if (DOCUMENTS.get(byName) == DetectedType.Reader.HTML) {
            return new DetectedType(byName.toString(), DetectedType.Reader.HTML);
        }
        MediaType text = isText(byName) ? byName : byContent;
        return new DetectedType(text.toString(), DetectedType.Reader.TEXT);
    }

    private MediaType mediaType(Path content, String fileName) throws IOException {
        Metadata metadata = new Metadata();
        if (fileName != null) {
            metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, fileName);
        }
        try (TikaInputStream in = TikaInputStream.get(content)) {
            return detector.detect(in, metadata).getBaseType();
        } catch (RuntimeException | LinkageError failure) {
            LOG.infof("type detection failed, the magic numbers decide: %s", failure.toString());
        }
        try (TikaInputStream in = TikaInputStream.get(content)) {
            return magic.detect(in, metadata).getBaseType();
        }
    }

    private boolean isText(MediaType type) {
        return type.getType().equals("text")
                || registry.isSpecializationOf(type, MediaType.TEXT_PLAIN)
                || type.getSubtype().equals("json") || type.getSubtype().endsWith("+json")
                || type.getSubtype().equals("xml") || type.getSubtype().endsWith("+xml")
                || type.getSubtype().equals("x-yaml") || type.getSubtype().equals("yaml");
    }
}
