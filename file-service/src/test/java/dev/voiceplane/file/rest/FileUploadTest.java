package dev.voiceplane.file.rest;

import static dev.voiceplane.file.Uploads.upload;
import static dev.voiceplane.file.Uploads.uploaded;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.voiceplane.file.TestDocuments;
import dev.voiceplane.file.Uploads;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Each accepted type, made by the test, uploads as a file whose text is extracted and whose bytes come back. */
@QuarkusTest
class FileUploadTest {

    private static final String UUID7 = "[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}";
    private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    private static String indexed(String name, byte[] bytes, String mimetype, String phrase) {
        String id = upload(name, bytes).statusCode(201)
                .body("status", equalTo("indexed"))
                .body("mimetype", equalTo(mimetype))
                .body("bytes", equalTo(bytes.length))
                .body("originalName", equalTo(name))
                .extract().path("id");
        internal(TestKeys.ORG_A).when().get("/internal/file/" + id + "/text").then().statusCode(200)
                .body("status", equalTo("indexed"))
                .body("text", containsString(phrase));
        byte[] back = Uploads.orgA().when().get("/file/" + id + "/content").then().statusCode(200)
                .header("Content-Type", containsString(mimetype))
                .header("Content-Length", String.valueOf(bytes.length))
                .extract().asByteArray();
        assertArrayEquals(bytes, back);
        return id;
    }

    @Test
    void theFileObjectIsTheEraShape() {
        byte[] bytes = TestDocuments.utf8("Opening hours are nine to five.\n");
        String id = upload("hours.txt", bytes).statusCode(201)
                .body("id", matchesPattern(UUID7))
                .body("orgId", equalTo(TestKeys.ORG_A))
                .body("object", equalTo("file"))
                .body("status", equalTo("indexed"))
                .body("name", equalTo("hours.txt"))
                .body("originalName", equalTo("hours.txt"))
                .body("bytes", equalTo(bytes.length))
                .body("mimetype", equalTo("text/plain"))
                .body("bucket", equalTo("files"))
                .body("key", matchesPattern("org-a/" + UUID7))
                .body("path", matchesPattern("files/org-a/" + UUID7))
                .body("createdAt", matchesPattern(TIMESTAMP))
                .body("updatedAt", matchesPattern(TIMESTAMP))
                .body("$", not(hasKey("purpose")))
                .body("$", not(hasKey("metadata")))
                .extract().path("id");
        orgA().when().get("/file/" + id).then().statusCode(200)
                .body("id", equalTo(id))
                .body("url", equalTo("/file/" + id + "/content"));
    }

    @Test
    void uploadPathAndBarePathBothCreate() {
        Uploads.orgA().multiPart("file", "a.txt", TestDocuments.utf8("alpha")).when().post("/file/upload")
                .then().statusCode(201).body("object", equalTo("file"));
        Uploads.orgA().multiPart("file", "b.txt", TestDocuments.utf8("beta")).when().post("/file")
                .then().statusCode(201).body("object", equalTo("file"));
    }

    @Test
    void plainText() {
        indexed("notes.txt", TestDocuments.utf8("The refund window is thirty days.\n"), "text/plain", "thirty days");
    }

    @Test
    void markdown() {
        indexed("faq.md", TestDocuments.utf8("# FAQ\n\n* Parking is **free** after six.\n"), "text/markdown",
                "Parking is **free** after six");
    }

    @Test
    void csv() {
        indexed("prices.csv", TestDocuments.utf8("item,price\nhaircut,25\nshave,12\n"), "text/csv", "haircut,25");
    }

    @Test
    void json() {
        indexed("menu.json", TestDocuments.utf8("{\"dish\": \"lentil soup\", \"price\": 7}"), "application/json",
                "lentil soup");
    }

    @Test
    void html() {
        String id = indexed("page.html",
                TestDocuments.utf8("<html><head><title>T</title><script>var secret = 1;</script></head>"
                        + "<body><h1>Welcome</h1><p>We deliver on Sundays.</p></body></html>"),
                "text/html", "We deliver on Sundays.");
        internal(TestKeys.ORG_A).when().get("/internal/file/" + id + "/text").then()
                .body("text", not(containsString("<p>")));
    }

    @Test
    void pdf() {
        indexed("policy.pdf", TestDocuments.pdf("Pets are welcome in the lobby."), "application/pdf",
                "Pets are welcome in the lobby.");
    }

    @Test
    void docx() {
        indexed("guide.docx", TestDocuments.docx("Check-in starts at three."),
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "Check-in starts at three.");
    }

    @Test
    void aWordProcessorsDocxIsIndexedWhole() {
        // Lists, properties, headers and footnotes are read through XMLBeans' schema types: in a native executable
        // each must be registered (WordSchemasFeature), or the whole document comes back not_indexed.
        String id = indexed("house-guide.docx", TestDocuments.wordDocument(),
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "Check-in starts at three.");
        internal(TestKeys.ORG_A).when().get("/internal/file/" + id + "/text").then().statusCode(200)
                .body("text", allOf(containsString("Arrival"),
                        containsString("1. Towels are changed daily"),
                        containsString("2. Breakfast is served until ten"),
                        containsString("Harbour view"), containsString("140 euros"),
                        containsString("Harbour Hotel"), containsString("Page footer"),
                        containsString("Late arrivals call ahead."),
                        containsString("Map of the harbour"),
                        containsString("Parking\tlevel minus one")));
    }

    @Test
    void doc() {
        // A Word 97 file: an OLE2 container, read by POI's HWPF (in a native executable, through its memory-mapped
        // reader of OLE2 files).
        String id = indexed("house-rules.doc", TestDocuments.word97Document(), "application/msword",
                "Number bullet 2");
        internal(TestKeys.ORG_A).when().get("/internal/file/" + id + "/text").then().statusCode(200)
                .body("text", allOf(containsString("This is the header text."),
                        containsString("Footnote appears here"), containsString("Bullet 3"),
                        containsString("This is a hyperlink"), containsString("Row 2 Col 3")));
    }

    @Test
    void theTypeComesFromTheContentNotTheNameOrHeader() {
        // A PDF called .txt, sent as text/plain, is a PDF.
        Uploads.orgA().multiPart("file", "not-really.txt", TestDocuments.pdf("Disguised."), "text/plain")
                .when().post("/file").then().statusCode(201)
                .body("mimetype", equalTo("application/pdf"))
                .body("status", equalTo("indexed"));
        // Text sent as application/pdf is text.
        Uploads.orgA().multiPart("file", "plain", TestDocuments.utf8("just words"), "application/pdf")
                .when().post("/file").then().statusCode(201)
                .body("mimetype", equalTo("text/plain"));
    }

    @Test
    void aDocumentWithoutTextIsStoredButNotIndexed() {
        String id = upload("blank.pdf", TestDocuments.emptyPages(2)).statusCode(201)
                .body("status", equalTo("not_indexed"))
                .body("mimetype", equalTo("application/pdf"))
                .extract().path("id");
        internal(TestKeys.ORG_A).when().get("/internal/file/" + id + "/text").then().statusCode(200)
                .body("status", equalTo("not_indexed"))
                .body("$", not(hasKey("text")));
    }

    @Test
    void aZipBombIsStoredButNotIndexed() {
        upload("bomb.docx", TestDocuments.docxBomb(60)).statusCode(201)
                .body("status", equalTo("not_indexed"));
    }

    @Test
    void theClientsNameIsSanitised() {
        upload("../../etc/pa\u0007ss\twd.txt", TestDocuments.utf8("x")).statusCode(201)
                .body("originalName", equalTo("passwd.txt"))
                .body("name", equalTo("passwd.txt"));
        upload("C:\\Users\\me\\report.txt", TestDocuments.utf8("x")).statusCode(201)
                .body("originalName", equalTo("report.txt"));
        String longName = "n".repeat(60) + ".txt";
        upload(longName, TestDocuments.utf8("x")).statusCode(201)
                .body("originalName", equalTo(longName))
                .body("name", equalTo("n".repeat(40)));
    }

    @Test
    void textIsAlsoServedForAnIdThatIsNotAUuidAs404() {
        internal(TestKeys.ORG_A).when().get("/internal/file/nope/text").then().statusCode(404)
                .body("message", equalTo("File not found"));
        orgA().when().get("/file/nope/content").then().statusCode(404).body("message", equalTo("File not found"));
    }
}
