package dev.voiceplane.file.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.file.TestDocuments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Detection and extraction on their own, with limits small enough to reach. */
class TextExtractorTest {

    @TempDir
    Path dir;

    private final TypeDetector detector = new TypeDetector();

    private Path file(String name, byte[] bytes) throws IOException {
        Path path = dir.resolve(name);
        Files.write(path, bytes);
        return path;
    }

    private Extraction extract(TextExtractor extractor, String name, byte[] bytes) throws Exception {
        Path path = file(name, bytes);
        return extractor.extract(path, detector.detect(path, name));
    }

    @Test
    void textOverTheWriteLimitIsNotIndexed() throws Exception {
        try (TextExtractor extractor = new TextExtractor(1000, Duration.ofSeconds(30), 1)) {
            Extraction extraction = extract(extractor, "long.txt", TestDocuments.utf8("word ".repeat(1000)));
            assertFalse(extraction.isIndexed());
            assertTrue(extraction.notIndexedBecause().contains("longer than 1000 characters"), extraction.notIndexedBecause());
            assertTrue(extract(extractor, "short.txt", TestDocuments.utf8("word ".repeat(100))).isIndexed());
        }
    }

    @Test
    void aDetectorThatFailsLeavesTheTypeToTheMagicNumbers() throws Exception {
        // As the native executable's did when POI's static state could not be made (2026-11-26): an Error, not an
        // IOException, from inside the container inspection.
        TypeDetector failing = new TypeDetector((in, metadata) -> {
            throw new ExceptionInInitializerError("the library could not start");
        });
        Path pdf = file("guide.pdf", TestDocuments.pdf("Check-in starts at three."));
        assertEquals(new DetectedType("application/pdf", DetectedType.Reader.PDF), failing.detect(pdf, "guide.pdf"));
        Path text = file("notes.md", TestDocuments.utf8("# Opening hours\nNine to five."));
        assertEquals(DetectedType.Reader.TEXT, failing.detect(text, "notes.md").reader());
        // A DOCX is recognised by its parts: without the inspection it is a zip, which is refused (a 4xx), not a 500.
        Path docx = file("guide.docx", TestDocuments.docx("Check-in starts at three."));
        assertThrows(UnsupportedContent.class, () -> failing.detect(docx, "guide.docx"));
    }

    @Test
    void aFailureIsLoggedWithItsCauses() {
        Throwable failure = new ExceptionInInitializerError(new IllegalStateException("no compiled schema"));
        assertEquals("java.lang.ExceptionInInitializerError, caused by java.lang.IllegalStateException: no compiled schema",
                TextExtractor.causes(failure));
    }

    @Test
    void aZipBombEndsNotIndexed() throws Exception {
        try (TextExtractor extractor = new TextExtractor(5_000_000, Duration.ofSeconds(60), 1)) {
            Extraction extraction = extract(extractor, "bomb.docx", TestDocuments.docxBomb(100));
            assertFalse(extraction.isIndexed(), "a bomb is not indexed");
        }
    }

    @Test
    void aDocumentThatOutlastsTheDeadlineIsNotIndexed() throws Exception {
        byte[] pages = TestDocuments.emptyPages(5000);
        // A deadline that has passed before the first page: the outcome does not depend on how fast this machine is.
        try (TextExtractor extractor = new TextExtractor(5_000_000, Duration.ofNanos(1), 1)) {
            Extraction extraction = extract(extractor, "pages.pdf", pages);
            assertFalse(extraction.isIndexed());
            assertTrue(extraction.notIndexedBecause().contains("took longer"), extraction.notIndexedBecause());
        }
    }

    @Test
    void aCorruptDocumentIsNotIndexed() throws Exception {
        byte[] pdf = TestDocuments.pdf("cut short");
        byte[] truncated = java.util.Arrays.copyOf(pdf, pdf.length / 3);
        try (TextExtractor extractor = new TextExtractor(5_000_000, Duration.ofSeconds(30), 1)) {
            assertFalse(extract(extractor, "cut.pdf", truncated).isIndexed());
        }
    }

    @Test
    void extractedTextIsStrippedAsStringStripWould() {
        for (String text : new String[] {"", " ", "\n\t \u2003", "a", " a b ", "\n\nword\r\n", "\u00a0a\u00a0",
                "\u3000x\u3000", "\ud83d\ude00 \ud83d\ude00", " \u00e9t\u00e9\n"}) {
            assertEquals(text.strip(), TextExtractor.stripped(new StringBuilder(text)), "[" + text + "]");
        }
    }

    @Test
    void plainTextIsExtractedWholeAndStripped() throws Exception {
        String body = "\n  " + "The opening hours are nine to five on weekdays.\n".repeat(2000) + "\n\n";
        try (TextExtractor extractor = new TextExtractor(5_000_000, Duration.ofSeconds(30), 1)) {
            Extraction extraction = extract(extractor, "hours.txt", TestDocuments.utf8(body));
            assertTrue(extraction.isIndexed());
            assertEquals(body.strip(), extraction.text());
        }
    }

    @Test
    void nulCharactersAreDroppedFromText() {
        // PostgreSQL text refuses U+0000, which a document's text may contain.
        assertEquals("ab", TextExtractor.storable("a\u0000b"));
    }

    @Test
    void detectionTrustsContentAndUsesTheNameOnlyForKindsOfText() throws Exception {
        assertEquals("application/pdf", detector.detect(file("x.txt", TestDocuments.pdf("p")), "x.txt").mimetype());
        assertEquals("text/csv", detector.detect(file("x.csv", TestDocuments.utf8("a,b\n1,2\n")), "x.csv").mimetype());
        assertEquals("text/plain", detector.detect(file("x.pdf", TestDocuments.utf8("hello")), "x.pdf").mimetype());
        assertEquals(DetectedType.Reader.DOCX, detector.detect(file("x.bin", TestDocuments.docx("d")), "x.bin").reader());
        assertThrows(UnsupportedContent.class, () -> detector.detect(file("x.txt", TestDocuments.binary(2048)), "x.txt"));
        assertThrows(UnsupportedContent.class, () -> detector.detect(file("x.png", TestDocuments.png()), "x.png"));
    }
}
