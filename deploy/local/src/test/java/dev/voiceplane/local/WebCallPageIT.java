package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.auth.MediaTokens;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first conversation as a newcomer has it, in a real Chromium with a fake microphone that speaks (espeak-ng
 * speech in a WAV file), against a stack of its own started as {@code deploy/local/up --talk} starts it, with the
 * providers' keys in the environment and the providers played by the voice runtime's fakes. {@code --talk} makes the
 * credentials and the assistant and prints the address of the page the gateway serves; on that page one press of
 * Call holds a call: the greeting is heard (the level the page measures), the caller's words come as partial lines
 * that update one line and then as final lines, the caller interrupts the answer (barge-in), hangs up, and the call's
 * transcript through the API is the page's. Pressing Call again during the call does not break it. The page's
 * resampler filters what 16 kHz cannot carry. The same page opened as a file holds a call from a webCallUrl, and
 * where no AudioWorklet loads the microphone still reaches the call. Every refusal is said in words: no input, a wrong URL, a wrong
 * API key, an expired or mangled token, an ended call's URL, an assistant that cannot start (the runtime's reason),
 * and, last, a stack that stopped during a call and then is not there at all.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebCallPageIT {

    private static final String MEDIA_TOKEN_KEY = "web-call-page-test-media-token-key-32-bytes-at-least";
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final Pattern PAGE_LINE = Pattern.compile("talk to it: open (http://\\S+/talk\\?assistantId=([0-9a-f-]{36}))");
    private static final String GREETING = TalkSetup.FIRST_MESSAGE;
    private static final String QUESTION = "Do you have parking?";
    private static final String INTERRUPTION = "Is it free?";
    private static final String LONG_ANSWER = "Yes, we have a car park behind the building with forty spaces. It opens"
            + " at seven in the morning and closes at eleven at night. There are two spaces for electric cars with"
            + " chargers, and three wide spaces near the door. On weekends it can be full by noon, so come early. If"
            + " it is full, there is a public car park on Mill Street, five minutes away on foot, which is open all"
            + " night.";
    private static final String SHORT_ANSWER = "Yes, it is free for guests.";
    /**
     * When the microphone speaks, from the start of each capture (the page starts it once the call has started): after
     * the greeting, then well into the answer. Generous, for a busy machine: the greeting's first audio 5 s late and the
     * answer's 8 s late still fit.
     */
    private static final int QUESTION_AT_MS = 11_000;
    private static final int INTERRUPTION_AFTER_MS = 9_000;

    @TempDir
    static Path dataDirectory;
    @TempDir
    static Path files;

    private static HeldCalls calls;
    private static Browser browser;
    private static String pageUrl;
    private static String assistantId;

    @BeforeAll
    static void start() throws Exception {
        calls = HeldCalls.start(dataDirectory, Map.of(
                "VOICE_MEDIA_TOKEN_KEY", MEDIA_TOKEN_KEY,
                "DEEPGRAM_API_KEY", HeldCalls.DEEPGRAM_KEY,
                "OPENAI_API_KEY", HeldCalls.LLM_KEY,
                "ELEVENLABS_API_KEY", HeldCalls.ELEVENLABS_KEY,
                // The providers are fakes on this machine; a machine busy with builds has made the transcriber's
                // stream open later than the 5 s a real provider gets, which no test here is about.
                "VOICE_STT_DEADLINE", "20s",
                "VOICE_LLM_FIRST_TOKEN_DEADLINE", "20s",
                "VOICE_TTS_FIRST_AUDIO_DEADLINE", "20s"), List.of("--talk"));
        String[] printed = new String[2];
        HeldCalls.eventually("the stack to print the page's address", STEP, () -> calls.stack().output().stream()
                .map(PAGE_LINE::matcher).filter(Matcher::find).findFirst()
                .map(found -> {
                    printed[0] = found.group(1);
                    printed[1] = found.group(2);
                    return true;
                }).orElse(false));
        pageUrl = printed[0];
        assistantId = printed[1];
        browser = Browser.launch(microphone());
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            if (calls != null) {
                calls.close();
            }
        }
    }

    /** Silence, the question, silence into the answer, the interruption, then silence: PCM16 16 kHz in a WAV file. */
    private static Path microphone() throws Exception {
        ByteArrayOutputStream pcm = new ByteArrayOutputStream();
        pcm.write(SpeechFixtures.pcmSilence(QUESTION_AT_MS, 16000));
        byte[] question = SpeechFixtures.pcm16k(QUESTION);
        pcm.write(question);
        pcm.write(SpeechFixtures.pcmSilence(INTERRUPTION_AFTER_MS, 16000));
        pcm.write(SpeechFixtures.pcm16k(INTERRUPTION));
        pcm.write(SpeechFixtures.pcmSilence(60_000, 16000));
        byte[] data = pcm.toByteArray();
        ByteBuffer wav = ByteBuffer.allocate(44 + data.length).order(ByteOrder.LITTLE_ENDIAN);
        wav.put("RIFF".getBytes()).putInt(36 + data.length).put("WAVE".getBytes())
                .put("fmt ".getBytes()).putInt(16).putShort((short) 1).putShort((short) 1).putInt(16000)
                .putInt(32000).putShort((short) 2).putShort((short) 16)
                .put("data".getBytes()).putInt(data.length).put(data);
        Path file = files.resolve("microphone.wav");
        Files.write(file, wav.array());
        return file;
    }

    @Test
    @Order(1)
    void oneCommandGivesAnAssistantThatTalksOnThePageTheStackServes() throws Exception {
        calls.deepgram().script(QUESTION, INTERRUPTION);
        calls.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Do you")
                ? new FakeOpenAi.Text(LONG_ANSWER) : new FakeOpenAi.Text(SHORT_ANSWER));
        Browser.Page page = browser.open(pageUrl);
        assertEquals(assistantId, page.evaluate("document.getElementById('assistant-id').value").asText(),
                "the printed address fills in the assistant");
        assertEquals("idle", state(page));
        watch(page);
        page.fill("#api-key", HeldCalls.KEY);
        page.click("#call");
        until("the call to start", page, () -> state(page).equals("in-call"));
        assertEquals(List.of(true, false), List.of(disabled(page, "#call"), disabled(page, "#hang-up")),
                "in a call, Call is disabled and Hang up is not");
        assertEquals("hang-up", page.evaluate("document.activeElement.id").asText(), "the keyboard is on Hang up");

        // A second press, by every way there is, neither breaks the call nor makes another.
        page.forceClick("#call");
        page.evaluate("document.getElementById('call-form').requestSubmit()");
        page.press("#assistant-id", "Enter");
        assertEquals("in-call", state(page));
        assertTrue(page.text("#log").contains("A call is already going on"), page.text("#log"));

        until("the greeting to be heard and its line shown", page,
                () -> heard(page) > 0.3 && lines(page).contains("Assistant: " + GREETING));
        until("the question's line", page, () -> lines(page).contains("You: " + QUESTION));
        until("the caller to interrupt the answer, which stops", page,
                () -> page.text("#log").contains("You interrupted the assistant"));
        until("the answer to the interruption", page, () -> lines(page).contains("Assistant: " + SHORT_ANSWER));
        page.press("#hang-up", "Enter");
        until("the call to end", page, () -> state(page).equals("ended"));
        assertEquals("Call ended (customer-ended-call): you hung up.", page.text("#status"));
        assertEquals(List.of(false, true), List.of(disabled(page, "#call"), disabled(page, "#hang-up")));

        List<String> shown = lines(page);
        JsonNode partials = page.evaluate("window.watched");
        assertTrue(partials.path("partialUpdates").asInt() >= 2, "the caller's words came as partials: " + partials);
        assertEquals(1, partials.path("mostPartialLines").asInt(), "partials update one line: " + partials);
        assertEquals(2, shown.stream().filter(line -> line.startsWith("You: ")).count(), "one line per sentence: "
                + shown);
        String interrupted = shown.get(2).replaceFirst("^Assistant: ", "");
        assertTrue(interrupted.startsWith("Yes,") && LONG_ANSWER.startsWith(interrupted)
                && interrupted.length() < LONG_ANSWER.length(), "the answer was cut short where it was heard: " + shown);

        JsonNode listed = HeldCalls.read(calls.as(HeldCalls.KEY).queryParam("assistantId", assistantId).when()
                .get("/call").then().statusCode(200).extract().asString());
        assertEquals(1, listed.size(), "one call for all the presses: " + listed);
        JsonNode call = calls.endedCall(listed.get(0).path("id").asText());
        assertEquals("customer-ended-call", call.path("endedReason").asText(), call.toString());
        assertEquals("webCall", call.path("type").asText(), call.toString());
        List<String> stored = HeldCalls.messages(call).stream()
                .map(line -> line.replaceFirst("^bot: ", "Assistant: ").replaceFirst("^user: ", "You: ")).toList();
        assertEquals(stored, shown, "the page shows the call's transcript");
        assertEquals(List.of(), page.errors(), "no uncaught error in the page");
        page.close();
    }

    @Test
    @Order(2)
    void thePageResamplesThroughALowPassFilter() throws Exception {
        Browser.Page page = browser.open(pageUrl);
        // A tone through the page's own resampler at the microphone rates browsers use; level in dB against the input.
        JsonNode levels = page.evaluate("""
                (() => {
                  const out = {};
                  for (const rate of [44100, 48000]) for (const hz of [1000, 6000, 9000, 12000, 20000]) {
                    const frames = [];
                    const d = new Downsampler(rate, 16000, 320, frame => frames.push(new Int16Array(frame)));
                    const x = new Float32Array(rate);
                    for (let i = 0; i < x.length; i++) x[i] = 0.5 * Math.sin(2 * Math.PI * hz * i / rate);
                    for (let i = 0; i < x.length; i += 128) d.push(x.subarray(i, i + 128));
                    let sum = 0, n = 0;
                    for (const frame of frames.slice(5)) for (const s of frame) { sum += (s / 32768) ** 2; n++; }
                    out[rate + '/' + hz] = 20 * Math.log10(Math.max(1e-9, Math.sqrt(sum / n)) / (0.5 / Math.SQRT2));
                  }
                  return out;
                })()""");
        for (String rate : List.of("44100", "48000")) {
            for (String hz : List.of("1000", "6000")) {
                double db = levels.path(rate + "/" + hz).asDouble();
                assertTrue(Math.abs(db) < 0.5, rate + " Hz in, " + hz + " Hz passes: " + levels);
            }
            for (String hz : List.of("9000", "12000", "20000")) {
                // Dropping samples would fold these into the speech band at full level (12 kHz becomes 4 kHz).
                assertTrue(levels.path(rate + "/" + hz).asDouble() < -60, rate + " Hz in, " + hz + " Hz is filtered: "
                        + levels);
            }
        }
        page.close();
    }

    @Test
    @Order(3)
    void thePageOpenedAsAFileHoldsACallFromAWebCallUrl() throws Exception {
        calls.openai().script(request -> new FakeOpenAi.Text(SHORT_ANSWER));
        String webCallUrl = webCallUrl();
        Browser.Page page = browser.open(RepositoryFiles.home().resolve(LocalStack.WEB_CALL_PAGE).toUri().toString());
        assertTrue(page.evaluate("document.getElementById('create').disabled").asBoolean(),
                "a file cannot create calls: " + page.text("#create-hint"));
        watch(page);
        page.fill("#web-call-url", webCallUrl);
        page.press("#web-call-url", "Enter");
        until("the microphone to be resampled in an AudioWorklet", page, () -> state(page).equals("in-call")
                && page.text("#log").contains("resampled to 16 kHz in an AudioWorklet"));
        until("the greeting to be heard and its line shown", page,
                () -> heard(page) > 0.3 && lines(page).contains("Assistant: " + GREETING));
        until("the caller's words", page, () -> lines(page).contains("You: " + QUESTION));
        page.click("#hang-up");
        until("the call to end", page, () -> state(page).equals("ended"));
        assertEquals("Call ended (customer-ended-call): you hung up.", page.text("#status"));
        assertEquals(List.of(), page.errors(), "no uncaught error in the page");

        // The same URL again: the call has ended, and the runtime says so.
        page.click("#call");
        until("the refusal", page, () -> state(page).equals("ended") && !page.text("#status").startsWith("Call ended"));
        assertEquals("The voice runtime did not join the call: the call cannot be joined (close 1008 refused). A "
                + "webCallUrl works once, while its call has not ended; create a new call.", page.text("#status"));
        page.close();
    }

    @Test
    @Order(4)
    void whereNoAudioWorkletLoadsTheMicrophoneIsResampledOnThePage() throws Exception {
        calls.deepgram().script(QUESTION);
        calls.openai().script(request -> new FakeOpenAi.Text(SHORT_ANSWER));
        Browser.Page page = browser.open(pageUrl);
        // As in a browser whose worklets cannot load (Chromium refused the earlier page's blob: module on a file://
        // page: "AbortError: Failed to load worklet module script").
        page.evaluate("(() => { AudioWorklet.prototype.addModule = () => Promise.reject(new DOMException("
                + "'Failed to load worklet module script', 'AbortError')); return true; })()");
        page.fill("#api-key", HeldCalls.KEY);
        page.click("#call");
        until("the microphone to be resampled on the page", page, () -> state(page).equals("in-call")
                && page.text("#log").contains("resampled to 16 kHz on the page (no AudioWorklet: AbortError)"));
        until("the caller's words and the answer", page, () -> lines(page).contains("You: " + QUESTION)
                && lines(page).contains("Assistant: " + SHORT_ANSWER));
        page.press("#hang-up", "Enter");
        until("the call to end", page, () -> state(page).equals("ended"));
        assertEquals("Call ended (customer-ended-call): you hung up.", page.text("#status"));
        assertEquals(List.of(), page.errors(), "no uncaught error in the page");
        page.close();
    }

    @Test
    @Order(5)
    void everyRefusalIsSaidInWords() throws Exception {
        Browser.Page page = browser.open(pageUrl.replaceFirst("\\?.*", ""));
        page.click("#call");
        assertEquals("Give the API key and the assistant id, or a webCallUrl.", page.text("#status"));
        assertEquals("idle", state(page));

        page.fill("#web-call-url", "https://localhost/call/web");
        page.click("#call");
        assertTrue(page.text("#status").startsWith("That is not a webCallUrl: it looks like ws://"), page.text("#status"));

        page.fill("#web-call-url", "");
        page.fill("#api-key", "not-a-key");
        page.fill("#assistant-id", assistantId);
        page.click("#call");
        until("the refusal", page, () -> state(page).equals("ended"));
        assertEquals("The call was not created: 401 Invalid Key. Hot tip, make sure you're using the private key not"
                + " the public key. Check the API key.", page.text("#status"));

        String genuine = webCallUrl();
        String callId = genuine.replaceFirst(".*/media/web/([0-9a-f-]{36})\\?.*", "$1");
        String expired = new MediaTokens(MEDIA_TOKEN_KEY).issue(HeldCalls.ORG, UUID.fromString(callId),
                Instant.now().minusSeconds(60));
        page.fill("#web-call-url", genuine.replaceFirst("token=.*", "token=" + expired));
        page.click("#call");
        until("the refusal", page, () -> state(page).equals("ended") && page.text("#status").contains("token"));
        assertTrue(page.text("#status").startsWith("The voice runtime refused the call: its token expired at "),
                page.text("#status"));

        page.fill("#web-call-url", genuine.substring(0, genuine.length() - 4));
        page.click("#call");
        until("the refusal", page, () -> state(page).equals("ended") && page.text("#status").contains("not valid"));
        assertEquals("The voice runtime refused the webCallUrl: its token is not valid here (mistyped, cut short, or"
                + " sealed with another key). Create a new call and use its webCallUrl.", page.text("#status"));
        assertEquals(List.of(), page.errors(), "no uncaught error in the page");
        page.close();
    }

    @Test
    @Order(6)
    void anAssistantThatCannotStartSaysWhy() throws Exception {
        String voiceless = calls.assistant("{\"name\":\"no voice\",\"transcriber\":{\"provider\":\"deepgram\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\"}}");
        Browser.Page page = browser.open(pageUrl.replaceFirst("assistantId=.*", "assistantId=" + voiceless));
        page.fill("#api-key", HeldCalls.KEY);
        page.click("#call");
        until("the call to end", page, () -> state(page).equals("ended"));
        assertEquals("Call ended (assistant-error): the assistant could not go on: The call could not start: the"
                + " assistant has no voice.", page.text("#status"));
        assertEquals(List.of(), page.errors(), "no uncaught error in the page");
        page.close();
    }

    @Test
    @Order(7)
    void aStackThatStopsIsSaidToBeGone() throws Exception {
        calls.openai().script(request -> new FakeOpenAi.Text(SHORT_ANSWER));
        Browser.Page page = browser.open(pageUrl);
        page.fill("#api-key", HeldCalls.KEY);
        page.click("#call");
        until("the call to start", page, () -> state(page).equals("in-call"));
        HeldCalls stopping = calls;
        calls = null;
        stopping.close();
        until("the page to say the call is over", page, () -> state(page).equals("ended"));
        String origin = pageUrl.replaceFirst("/talk.*", "");
        // Whether the gateway still answered when the runtime's socket went depends on the order the stack stopped in.
        assertTrue(page.text("#status").matches("The call was cut off: the connection to the voice runtime closed"
                + " without the call ending \\(close \\d+.*\\)\\. voiceplane (does not answer at " + Pattern.quote(origin)
                + ": is the stack running \\(deploy/local/up\\)\\?|still answers at " + Pattern.quote(origin)
                + ": the voice runtime may have stopped\\.)"), page.text("#status"));

        page.click("#call");
        until("the refusal", page, () -> state(page).equals("ended")
                && page.text("#status").startsWith("voiceplane does not answer"));
        assertEquals("voiceplane does not answer at " + origin + ": is the stack running (deploy/local/up)? The call"
                + " was not created.", page.text("#status"));
        assertEquals(List.of(), page.errors(), "no uncaught error in the page");
        page.close();
    }

    // ---- the page, read as a person would read it

    private static String state(Browser.Page page) throws Exception {
        return page.evaluate("document.body.dataset.state").asText();
    }

    private static boolean disabled(Browser.Page page, String selector) throws Exception {
        return page.evaluate("document.querySelector('" + selector + "').disabled").asBoolean();
    }

    /** The transcript's final lines, as shown. */
    private static List<String> lines(Browser.Page page) throws Exception {
        List<String> lines = new ArrayList<>();
        page.evaluate("[...document.querySelectorAll('#transcript li:not(.partial)')].map(li => li.textContent)")
                .forEach(line -> lines.add(line.asText()));
        return lines;
    }

    /** The loudest the page's meter of the assistant's voice has been since {@link #watch}. */
    private static double heard(Browser.Page page) throws Exception {
        return page.evaluate("window.watched.heard").asDouble();
    }

    /**
     * Watches the page as it goes: the highest value of its meter of the assistant's voice (sampled every 20 ms), how
     * often a partial line's words changed, and the most partial lines ever shown at once.
     */
    private static void watch(Browser.Page page) throws Exception {
        page.evaluate("""
                (() => {
                  const watched = window.watched = {heard: 0, partialUpdates: 0, mostPartialLines: 0};
                  const meter = document.getElementById('heard-level'), list = document.getElementById('transcript');
                  setInterval(() => { watched.heard = Math.max(watched.heard, meter.value); }, 20);
                  new MutationObserver(records => {
                    for (const record of records) {
                      if (record.target.classList && record.target.classList.contains('partial')) watched.partialUpdates++;
                    }
                    watched.mostPartialLines = Math.max(watched.mostPartialLines,
                        list.querySelectorAll('li.partial[data-role="user"]').length);
                  }).observe(list, {childList: true, subtree: true});
                  return true;
                })()""");
    }

    /** A new web call of the talk assistant, created through the API: its webCallUrl. */
    private static String webCallUrl() {
        return calls.as(HeldCalls.KEY).body("{\"assistantId\":\"" + assistantId + "\"}").when().post("/call/web")
                .then().statusCode(201).extract().path("webCallUrl");
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    /** Polls what the page shows until it holds, at most {@link #STEP}; says what the page showed when it did not. */
    private static void until(String what, Browser.Page page, Check check) throws Exception {
        Instant deadline = Instant.now().plus(STEP);
        while (!check.holds()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within " + STEP.toSeconds() + " s: " + what + "; the page says: "
                        + page.text("#status") + "\ntranscript: " + lines(page) + "\nlog: " + page.text("#log"));
            }
            Thread.sleep(100);
        }
    }
}
