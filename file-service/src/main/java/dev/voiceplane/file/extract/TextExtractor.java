package dev.voiceplane.file.extract;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.tika.exception.WriteLimitReachedException;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.parser.html.JSoupParser;
import org.apache.tika.parser.microsoft.OfficeParser;
import org.apache.tika.parser.microsoft.OfficeParserConfig;
import org.apache.tika.parser.microsoft.ooxml.OOXMLParser;
import org.apache.tika.parser.pdf.PDFParser;
import org.apache.tika.parser.pdf.PDFParserConfig;
import org.apache.tika.parser.txt.TXTParser;
import org.apache.tika.sax.BodyContentHandler;
import org.apache.tika.sax.ContentHandlerDecorator;
import org.apache.tika.sax.WriteOutContentHandler;
import org.jboss.logging.Logger;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;

/**
 * Reads the text of a file with the one Tika parser its detected type calls for (never a parser chosen by the
 * client, never one for a type that is not accepted), within bounds that a hostile document cannot pass:
 * <ul>
 *   <li>at most {@code maxChars} characters of text (a zip bomb of text stops there);</li>
 *   <li>at most {@code timeout} of work, checked on every piece of output and enforced by interrupting the worker
 *       (a PDF of a million empty pages stops there);</li>
 *   <li>at most {@code threads} documents parsed at once, on this extractor's own threads, so uploads cannot pile
 *       up parsers; time spent waiting for a thread counts against the timeout;</li>
 *   <li>streaming readers only: PDFBox reads the file from disk with bounded main memory, DOCX through POI's SAX
 *       reader, whose zip-bomb check (inflate ratio) stays on.</li>
 * </ul>
 * Anything over a bound, and any parser failure, is "not indexed": the file is kept, its text is not.
 */
public class TextExtractor implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TextExtractor.class);
    private static final long PDF_MAIN_MEMORY = 32L * 1024 * 1024;

    private final int maxChars;
    private final Duration timeout;
    private final ExecutorService workers;

    public TextExtractor(int maxChars, Duration timeout, int threads) {
        this.maxChars = maxChars;
        this.timeout = timeout;
        AtomicInteger count = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "text-extractor-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    public Extraction extract(Path content, DetectedType type) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Future<Extraction> work = workers.submit(() -> parse(content, type, deadline));
        try {
            return work.get(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            work.cancel(true);
            return Extraction.notIndexed("text extraction took longer than " + timeout);
        } catch (InterruptedException e) {
            work.cancel(true);
            Thread.currentThread().interrupt();
            return Extraction.notIndexed("interrupted");
        } catch (ExecutionException e) {
            // Parser failures (malformed, encrypted, zip bomb) and errors (a parser's allocation refused) alike. The
            // causes are named (a library's failed static initialiser says nothing on its own), the trace is DEBUG.
            LOG.infof("text extraction of a %s failed: %s", type.mimetype(), causes(e.getCause()));
            LOG.debugf(e.getCause(), "text extraction of a %s failed", type.mimetype());
            return Extraction.notIndexed("the document could not be read: " + e.getCause());
        }
    }

    /** "A: message, caused by B: message, ...": at most five, the innermost last. */
    static String causes(Throwable failure) {
        StringBuilder text = new StringBuilder(String.valueOf(failure));
        Throwable cause = failure == null ? null : failure.getCause();
        for (int depth = 1; cause != null && depth < 5; depth++, cause = cause.getCause()) {
            text.append(", caused by ").append(cause);
        }
        return text.toString();
    }

    private Extraction parse(Path content, DetectedType type, long deadline) throws Exception {
        // Plain text has about as many characters as bytes: sized once, the buffer is not regrown (and copied) on
        // the way to the file's length; other kinds start small.
        StringWriter out = type.reader() == DetectedType.Reader.TEXT
                ? new StringWriter((int) Math.min(Files.size(content) + 1, maxChars + 1L))
                : new StringWriter();
        WriteOutContentHandler text = new WriteOutContentHandler(out, maxChars);
        ParseContext context = new ParseContext();
        Parser parser = parser(type.reader(), context);
        context.set(Parser.class, parser);
        try (TikaInputStream in = TikaInputStream.get(content)) {
            parser.parse(in, new Bounded(new BodyContentHandler(text), deadline), new Metadata(), context);
        } catch (Exception e) {
            if (WriteLimitReachedException.isWriteLimitReached(e)) {
                return Extraction.notIndexed("the text is longer than " + maxChars + " characters");
            }
            if (e instanceof TimeUp || e.getCause() instanceof TimeUp) {
                return Extraction.notIndexed("text extraction took longer than " + timeout);
            }
            throw e;
        }
        String extracted = storable(stripped(out.getBuffer()));
        return extracted.isEmpty() ? Extraction.notIndexed("the document holds no text") : Extraction.indexed(extracted);
    }

    private static Parser parser(DetectedType.Reader reader, ParseContext context) {
        return switch (reader) {
            case TEXT -> new TXTParser();
            case HTML -> new JSoupParser();
            case PDF -> {
                PDFParserConfig config = new PDFParserConfig();
                config.setMaxMainMemoryBytes(PDF_MAIN_MEMORY);
                config.setExtractInlineImages(false);
                config.setOcrStrategy(PDFParserConfig.OCR_STRATEGY.NO_OCR);
                context.set(PDFParserConfig.class, config);
                yield new PDFParser();
            }
            case DOCX -> {
                OfficeParserConfig config = new OfficeParserConfig();
                config.setUseSAXDocxExtractor(true);
                config.setExtractMacros(false);
                context.set(OfficeParserConfig.class, config);
                yield new OOXMLParser();
            }
            case DOC -> new OfficeParser();
        };
    }

    /** {@link String#strip()} of the text, copied out of the buffer once (not once whole, then once stripped). */
    static String stripped(CharSequence text) {
        int start = 0;
        int end = text.length();
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return text.subSequence(start, end).toString();
    }

    /** PostgreSQL text cannot hold U+0000; a document may well contain it. */
    static String storable(String text) {
        return text.indexOf('\u0000') < 0 ? text : text.replace("\u0000", "");
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }

    /** Thrown from the content handler once the deadline has passed, so that a parser stops at its next output. */
    static final class TimeUp extends SAXException {
        TimeUp() {
            super("text extraction deadline passed");
        }
    }

    /** Checks the deadline (and the worker's interrupt) on every event a parser emits. */
    private static final class Bounded extends ContentHandlerDecorator {
        private final long deadline;

        Bounded(org.xml.sax.ContentHandler handler, long deadline) {
            super(handler);
            this.deadline = deadline;
        }

        private void check() throws SAXException {
            if (System.nanoTime() - deadline > 0 || Thread.currentThread().isInterrupted()) {
                throw new TimeUp();
            }
        }

        @Override
        public void startElement(String uri, String localName, String name, Attributes atts) throws SAXException {
            check();
            super.startElement(uri, localName, name, atts);
        }

        @Override
        public void characters(char[] ch, int start, int length) throws SAXException {
            check();
            super.characters(ch, start, length);
        }

        @Override
        public void ignorableWhitespace(char[] ch, int start, int length) throws SAXException {
            check();
            super.ignorableWhitespace(ch, start, length);
        }
    }
}
