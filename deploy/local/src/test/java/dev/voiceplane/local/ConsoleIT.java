package dev.voiceplane.local;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console ({@code /console}, docs/console.md) in a real Chromium against a stack of its own: a wrong key is
 * refused in words, the right one signs in and names the organisation; the assistants are listed; a new assistant
 * refused by the API shows every message the API gave, and once corrected it is created; the calls are listed and a
 * call's page shows what the API says of it; a credential is read without its secret; a file is uploaded; the
 * web-call page opens for an assistant with the key and the assistant already given; signing out forgets the key.
 * What the console's server answers that is not a page is in the error shape, and the key never shows in what the
 * stack logs.
 */
class ConsoleIT {

    private static final String ORG = "org-console";
    private static final String KEY = "console-test-key-7f3a9";
    private static final String SECRET = "sk-console-test-secret-4411";
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Refused by the API (a first message mode it does not know) with a message naming the field. */
    private static final String REFUSED = "{\"name\": \"Night desk\", \"firstMessageMode\": \"shout-first\"}";
    private static final String CORRECTED =
            "{\"name\": \"Night desk\", \"firstMessageMode\": \"assistant-speaks-first\"}";

    @TempDir
    static Path dataDirectory;
    @TempDir
    static Path files;

    private static StackUnderTest stack;
    private static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        stack = StackUnderTest.start(dataDirectory, gatewayPort -> Map.of("VOICE_API_KEYS", ORG + ":" + KEY));
        browser = Browser.launch(silence());
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (stack != null) {
            stack.stop();
        }
    }

    @Test
    void anOperatorSignsInEditsAnAssistantAndReadsACall() throws Exception {
        String base = "http://localhost:" + stack.gatewayPort;
        String frontDesk = api().body("{\"name\": \"Front desk\"}").when().post(base + "/assistant")
                .then().statusCode(201).extract().path("id");
        String callId = api().body("{\"assistantId\": \"" + frontDesk + "\"}").when().post(base + "/call/web")
                .then().statusCode(201).extract().path("id");

        String credentialId = api().body("{\"provider\": \"openai\", \"apiKey\": \"" + SECRET + "\"}")
                .when().post(base + "/credential").then().statusCode(201).extract().path("id");

        Browser.Page page = browser.open(base + "/console");
        assertEquals(base + "/console/", page.evaluate("location.href").asText());

        page.fill("#api-key", "not-a-key");
        page.click("#sign-in button[type=submit]");
        until("the wrong key to be refused", page, () -> visible(page, "#problem"));
        assertTrue(page.text("#problem").startsWith("401"), page.text("#problem"));
        assertEquals("signed-out", page.evaluate("document.body.dataset.state").asText());

        page.fill("#api-key", KEY);
        page.click("#sign-in button[type=submit]");
        until("the assistants", page, () -> exists(page, "#items"));
        assertEquals("Organisation " + ORG, page.text("#organisation"));
        assertTrue(page.text("#items").contains("Front desk"), page.text("#items"));

        page.click("#new-item");
        until("the new assistant's form", page, () -> exists(page, "#item-json"));
        // The template a new assistant starts from is one the API takes as it is.
        api().body(page.evaluate("document.getElementById('item-json').value").asText()).when()
                .post(base + "/assistant").then().statusCode(201);
        page.fill("#item-json", REFUSED);
        page.click("#save");
        until("the API's messages", page, () -> exists(page, "#outcome .errors li"));
        List<String> expected = new ArrayList<>();
        api().body(REFUSED).when().post(base + "/assistant").then().statusCode(400).extract().jsonPath()
                .getList("message", String.class).forEach(expected::add);
        assertEquals(expected, texts(page, "#outcome .errors li"));
        assertTrue(expected.stream().anyMatch(message -> message.contains("firstMessageMode")), expected.toString());

        page.fill("#item-json", CORRECTED);
        page.click("#save");
        until("the created assistant's page", page, () -> exists(page, "#item-id"));
        String created = page.text("#item-id");
        api().when().get(base + "/assistant/" + created).then().statusCode(200)
                .body("name", equalTo("Night desk")).body("firstMessageMode", equalTo("assistant-speaks-first"));

        page.click("#talk");
        until("the web-call page", page, () -> page.evaluate("(() => { const d = document.getElementById("
                + "'talk-frame')?.contentDocument; return !!d && d.readyState === 'complete' && !!d.getElementById("
                + "'assistant-id')?.value; })()").asBoolean());
        assertEquals(created, frameValue(page, "assistant-id"));
        assertEquals(KEY, frameValue(page, "api-key"));

        page.evaluate("location.hash = '#/calls'");
        until("the calls", page, () -> exists(page, "#calls a[href='#/calls/" + callId + "']"));
        page.click("#calls a[href='#/calls/" + callId + "']");
        until("the call's page", page, () -> exists(page, "#call-fields"));
        JsonNode call = JSON.readTree(api().when().get(base + "/call/" + callId).then().statusCode(200).extract()
                .asString());
        assertEquals(call.path("status").asText(), page.text("#call-fields [data-field=status]"));
        assertEquals(frontDesk, page.text("#call-fields [data-field=assistant]"));

        page.evaluate("location.hash = '#/credentials'");
        until("the credentials", page, () -> exists(page, "#items a[href='#/credentials/" + credentialId + "']"));
        page.click("#items a[href='#/credentials/" + credentialId + "']");
        until("the credential's page", page, () -> exists(page, "#item-json"));
        assertTrue(page.evaluate("document.getElementById('item-json').readOnly").asBoolean());
        assertTrue(page.evaluate("document.getElementById('item-json').value").asText().contains("\"openai\""));
        assertFalse(page.evaluate("document.documentElement.outerHTML + document.getElementById('item-json').value")
                .asText().contains(SECRET), "the credential's secret is shown");

        page.evaluate("location.hash = '#/files'");
        until("the files", page, () -> exists(page, "#upload-file"));
        assertEquals(1, page.evaluate("(() => { const chosen = new DataTransfer(); chosen.items.add(new File("
                + "['Opening hours: nine to five.'], 'hours.txt', {type: 'text/plain'})); const input = document"
                + ".getElementById('upload-file'); input.files = chosen.files; return input.files.length; })()")
                .asInt());
        page.click("#upload button[type=submit]");
        until("the upload to be stored", page, () -> exists(page, "#upload-outcome .notice"));
        assertTrue(page.text("#items").contains("hours.txt"), page.text("#items"));
        assertEquals(List.of("hours.txt"), api().when().get(base + "/file").then().statusCode(200).extract()
                .jsonPath().getList("name", String.class));

        page.click("#sign-out");
        assertTrue(visible(page, "#sign-in-section"));
        assertTrue(page.evaluate("sessionStorage.getItem('voiceplane-api-key') === null").asBoolean());
        assertEquals(List.of(), page.errors());
        page.close();

        given().when().get(base + "/console/no-such-page").then().statusCode(404)
                .body("statusCode", equalTo(404)).body("message", equalTo("Cannot GET /console/no-such-page"));
        assertFalse(stack.output().stream().anyMatch(line -> line.contains(KEY)), "the API key is in the stack's log");
    }

    private static RequestSpecification api() {
        return given().header("Authorization", "Bearer " + KEY).contentType(ContentType.JSON);
    }

    private static String frameValue(Browser.Page page, String id) throws Exception {
        return page.evaluate("document.getElementById('talk-frame').contentDocument.getElementById('" + id
                + "').value").asText();
    }

    private static boolean exists(Browser.Page page, String selector) throws Exception {
        return page.evaluate("!!document.querySelector(" + JSON.writeValueAsString(selector) + ")").asBoolean();
    }

    private static boolean visible(Browser.Page page, String selector) throws Exception {
        return page.evaluate("(() => { const e = document.querySelector(" + JSON.writeValueAsString(selector)
                + "); return !!e && !e.hidden; })()").asBoolean();
    }

    private static List<String> texts(Browser.Page page, String selector) throws Exception {
        List<String> texts = new ArrayList<>();
        page.evaluate("[...document.querySelectorAll(" + JSON.writeValueAsString(selector)
                + ")].map(e => e.textContent)").forEach(text -> texts.add(text.asText()));
        return texts;
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    /** Polls the page until the check holds, at most {@link #STEP}; says what the page showed when it did not. */
    private static void until(String what, Browser.Page page, Check check) throws Exception {
        Instant deadline = Instant.now().plus(STEP);
        while (!check.holds()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within " + STEP.toSeconds() + " s: " + what + "; the page shows: "
                        + page.evaluate("document.body.innerText").asText() + "\nits errors: " + page.errors());
            }
            Thread.sleep(100);
        }
    }

    /** The browser's microphone, which the console never opens here: a second of silence. */
    private static Path silence() throws Exception {
        byte[] data = new byte[32000];
        ByteBuffer wav = ByteBuffer.allocate(44 + data.length).order(ByteOrder.LITTLE_ENDIAN);
        wav.put("RIFF".getBytes()).putInt(36 + data.length).put("WAVE".getBytes())
                .put("fmt ".getBytes()).putInt(16).putShort((short) 1).putShort((short) 1).putInt(16000)
                .putInt(32000).putShort((short) 2).putShort((short) 16)
                .put("data".getBytes()).putInt(data.length).put(data);
        Path file = files.resolve("silence.wav");
        Files.write(file, wav.array());
        return file;
    }
}
