package dev.voiceplane.file;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.xwpf.model.XWPFHeaderFooterPolicy;
import org.apache.poi.xwpf.usermodel.XWPFAbstractNum;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFRun;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.CTAbstractNum;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.CTLvl;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.STNumberFormat;

/**
 * Real documents of every accepted type, made here with the libraries that write them (PDFBox, POI), but for the DOC,
 * which POI cannot write: that one is a test document of Tika's.
 */
public final class TestDocuments {

    private TestDocuments() {
    }

    /** A one-page PDF whose text is {@code text}. */
    public static byte[] pdf(String text) {
        try (PDDocument document = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDPage page = new PDPage();
            document.addPage(page);
            try (PDPageContentStream content = new PDPageContentStream(document, page)) {
                content.beginText();
                content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                content.newLineAtOffset(72, 700);
                content.showText(text);
                content.endText();
            }
            document.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A PDF of {@code pages} empty pages: no text at all, and much work for a reader. */
    public static byte[] emptyPages(int pages) {
        try (PDDocument document = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            for (int i = 0; i < pages; i++) {
                document.addPage(new PDPage());
            }
            document.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A DOCX with one paragraph. */
    public static byte[] docx(String text) {
        try (XWPFDocument document = new XWPFDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            document.createParagraph().createRun().setText(text);
            document.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A DOCX with what a word processor writes beside the text: core, extended and custom properties, a heading, a
     * numbered list, a table, a header, a footer, a footnote, a hyperlink and a tab. Its list labels
     * ("1.", "2.") and its properties are read through XMLBeans' schema types, which a native executable must hold.
     */
    public static byte[] wordDocument() {
        try (XWPFDocument document = new XWPFDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            document.getProperties().getCoreProperties().setTitle("House guide");
            document.getProperties().getCoreProperties().setCreator("Front desk");
            document.getProperties().getExtendedProperties().setCompany("Harbour Hotel");
            document.getProperties().getCustomProperties().addProperty("department", "reception");
            document.createStyles();
            XWPFParagraph heading = document.createParagraph();
            heading.setStyle("Heading1");
            heading.createRun().setText("Arrival");
            document.createParagraph().createRun().setText("Check-in starts at three.");

            CTAbstractNum decimal = CTAbstractNum.Factory.newInstance();
            decimal.setAbstractNumId(BigInteger.ONE);
            CTLvl level = decimal.addNewLvl();
            level.setIlvl(BigInteger.ZERO);
            level.addNewStart().setVal(BigInteger.ONE);
            level.addNewNumFmt().setVal(STNumberFormat.DECIMAL);
            level.addNewLvlText().setVal("%1.");
            BigInteger list = document.createNumbering()
                    .addNum(document.getNumbering().addAbstractNum(new XWPFAbstractNum(decimal)));
            for (String item : new String[] {"Towels are changed daily", "Breakfast is served until ten"}) {
                XWPFParagraph paragraph = document.createParagraph();
                paragraph.setNumID(list);
                paragraph.setNumILvl(BigInteger.ZERO);
                paragraph.createRun().setText(item);
            }

            XWPFTable table = document.createTable(2, 2);
            table.getRow(0).getCell(0).setText("Room");
            table.getRow(0).getCell(1).setText("Rate");
            table.getRow(1).getCell(0).setText("Harbour view");
            table.getRow(1).getCell(1).setText("140 euros");
            XWPFHeaderFooterPolicy pages = document.createHeaderFooterPolicy();
            pages.createHeader(XWPFHeaderFooterPolicy.DEFAULT).createParagraph().createRun().setText("Harbour Hotel");
            pages.createFooter(XWPFHeaderFooterPolicy.DEFAULT).createParagraph().createRun().setText("Page footer");
            document.createFootnote().createParagraph().createRun().setText("Late arrivals call ahead.");
            document.createParagraph().createHyperlinkRun("https://example.com/map").setText("Map of the harbour");
            XWPFRun run = document.createParagraph().createRun();
            run.setText("Parking");
            run.addTab();
            run.setText("level minus one");
            document.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A Word 97 document (DOC) with a header, a footnote, a bulleted and a numbered list, a hyperlink and a table:
     * Tika's own test document {@code testWORD_various.doc}, which the build unpacks from Tika's test jar onto the
     * test class path (POI cannot write a DOC).
     */
    public static byte[] word97Document() {
        try (var in = TestDocuments.class.getResourceAsStream("/test-documents/testWORD_various.doc")) {
            if (in == null) {
                throw new IllegalStateException("testWORD_various.doc is not on the test class path (file-service's pom"
                        + " unpacks it at process-test-resources)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A zip bomb dressed as a DOCX: a valid package whose {@code word/document.xml} inflates from a few hundred
     * kilobytes to {@code inflatedMiB} MiB of whitespace inside a paragraph.
     */
    public static byte[] docxBomb(int inflatedMiB) {
        byte[] valid = docx("bomb");
        try (ByteArrayOutputStream out = new ByteArrayOutputStream();
                ZipOutputStream zip = new ZipOutputStream(out);
                java.util.zip.ZipInputStream in = new java.util.zip.ZipInputStream(new java.io.ByteArrayInputStream(valid))) {
            zip.setLevel(Deflater.BEST_COMPRESSION);
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                zip.putNextEntry(new ZipEntry(entry.getName()));
                if (entry.getName().equals("word/document.xml")) {
                    writeBombDocument(zip, inflatedMiB);
                } else {
                    in.transferTo(zip);
                }
                zip.closeEntry();
            }
            zip.finish();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeBombDocument(OutputStream out, int inflatedMiB) throws IOException {
        out.write(("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
                + "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body><w:p><w:r>"
                + "<w:t xml:space=\"preserve\">").getBytes(StandardCharsets.UTF_8));
        byte[] block = "a".repeat(1024 * 1024).getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < inflatedMiB; i++) {
            out.write(block);
        }
        out.write("</w:t></w:r></w:p></w:body></w:document>".getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The first bytes of a PNG: a type that holds no text this service reads. */
    public static byte[] png() {
        return new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'I', 'H', 'D', 'R',
            0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, (byte) 0xc4, (byte) 0x89};
    }

    /** Bytes that are no known type and not text. */
    public static byte[] binary(int size) {
        byte[] bytes = new byte[size];
        new java.util.Random(42).nextBytes(bytes);
        return bytes;
    }
}
