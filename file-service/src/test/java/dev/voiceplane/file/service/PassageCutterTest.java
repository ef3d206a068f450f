package dev.voiceplane.file.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** How a file's text is cut into the passages the knowledge-base search finds and the model is given. */
class PassageCutterTest {

    @Test
    void shortParagraphsArePackedTogetherUpToTheLimit() {
        String first = "The office opens at nine.";
        String second = "Parking   is free\tfor visitors.";
        assertEquals(List.of(first + "\nParking is free for visitors."), PassageCutter.cut(first + "\n\n" + second));

        String paragraph = "word ".repeat(100).trim(); // 499 characters: two do not fit in one passage
        List<String> passages = PassageCutter.cut(paragraph + "\n\n" + paragraph);
        assertEquals(List.of(paragraph, paragraph), passages);
    }

    @Test
    void aLongParagraphIsCutBetweenSentences() {
        String sentence = "This sentence is about sixty characters long, give or take.";
        String paragraph = (sentence + " ").repeat(20).trim();
        List<String> passages = PassageCutter.cut(paragraph);
        assertTrue(passages.size() > 1, passages.toString());
        for (String passage : passages) {
            assertTrue(passage.length() <= PassageCutter.MAX_CHARS, passage);
            assertTrue(passage.startsWith("This") && passage.endsWith("take."), passage);
        }
        assertEquals(paragraph, String.join(" ", passages));
    }

    @Test
    void aMegabyteWithoutAFullStopIsCutAtSpacesAndLosesNoWord() {
        StringBuilder text = new StringBuilder();
        Random random = new Random(7);
        while (text.length() < 1 << 20) {
            text.append("w".repeat(1 + random.nextInt(12))).append(' ');
        }
        String words = text.toString().trim();
        List<String> passages = PassageCutter.cut(words);
        for (String passage : passages) {
            assertTrue(passage.length() <= PassageCutter.MAX_CHARS);
            assertFalse(passage.startsWith(" ") || passage.endsWith(" "));
        }
        assertEquals(words, String.join(" ", passages));
    }

    @Test
    void aWordLongerThanAPassageIsCutAtTheLimitButNeverInsideASurrogatePair() {
        String emoji = "\uD83D\uDE00";
        String word = "a".repeat(PassageCutter.MAX_CHARS - 1) + emoji + "b".repeat(50);
        List<String> passages = PassageCutter.cut(word);
        assertEquals(List.of("a".repeat(PassageCutter.MAX_CHARS - 1), emoji + "b".repeat(50)), passages);
    }

    @Test
    void theCutIsTheSameAsCuttingWhatIsLeftEachTime() {
        Random random = new Random(42);
        String[] pieces = {"word", "a", "longerword", ".", "!", "?", " ", "  ", "\n", "\n\n", "\u0001", "\uD83D\uDE00",
            "x".repeat(300), "y".repeat(701), "Dr.", " end. "};
        for (int round = 0; round < 500; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(6000);
            while (text.length() < length) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            assertEquals(reference(text.toString()), PassageCutter.cut(text.toString()), "round " + round);
        }
    }

    /** The cut as first written: each long sentence cut by taking what is left after each passage as a new string. */
    private static List<String> reference(String text) {
        List<String> passages = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String paragraph : Pattern.compile("\\n\\s*\\n").split(text)) {
            String clean = Pattern.compile("\\s+").matcher(paragraph).replaceAll(" ").trim();
            if (clean.isEmpty()) {
                continue;
            }
            if (clean.length() > PassageCutter.MAX_CHARS) {
                flush(current, passages);
                StringBuilder inner = new StringBuilder();
                for (String sentence : Pattern.compile("(?<=[.!?。？！])\\s+").split(clean)) {
                    String rest = sentence;
                    while (rest.length() > PassageCutter.MAX_CHARS) {
                        flush(inner, passages);
                        int cut = rest.lastIndexOf(' ', PassageCutter.MAX_CHARS);
                        if (cut <= 0) {
                            cut = Character.isHighSurrogate(rest.charAt(PassageCutter.MAX_CHARS - 1))
                                    ? PassageCutter.MAX_CHARS - 1
                                    : PassageCutter.MAX_CHARS;
                        }
                        passages.add(rest.substring(0, cut).trim());
                        rest = rest.substring(cut).trim();
                    }
                    if (rest.isEmpty()) {
                        continue;
                    }
                    if (inner.length() > 0 && inner.length() + 1 + rest.length() > PassageCutter.MAX_CHARS) {
                        flush(inner, passages);
                    }
                    if (inner.length() > 0) {
                        inner.append(' ');
                    }
                    inner.append(rest);
                }
                flush(inner, passages);
                continue;
            }
            if (current.length() > 0 && current.length() + 1 + clean.length() > PassageCutter.MAX_CHARS) {
                flush(current, passages);
            }
            if (current.length() > 0) {
                current.append('\n');
            }
            current.append(clean);
        }
        flush(current, passages);
        return passages;
    }

    private static void flush(StringBuilder current, List<String> passages) {
        if (current.length() > 0) {
            passages.add(current.toString());
            current.setLength(0);
        }
    }
}
