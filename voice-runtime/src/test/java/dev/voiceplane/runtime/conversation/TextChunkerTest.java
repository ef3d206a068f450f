package dev.voiceplane.runtime.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextChunkerTest {

    @Test
    void piecesEndAtABoundaryOnceLongEnough() {
        TextChunker chunker = new TextChunker(10, List.of(".", "!", "?"));
        List<String> pieces = new ArrayList<>();
        for (String token : "Hi. We open at 9.30 on weekdays. Closed Sundays! Anything else".split("(?<= )")) {
            pieces.addAll(chunker.add(token));
        }
        assertEquals(List.of("Hi. We open at 9.30 on weekdays.", "Closed Sundays!"), pieces);
        assertEquals("Anything else", chunker.flush());
        assertNull(chunker.flush());
    }

    @Test
    void aBoundaryCountsOnlyWhenWhitespaceFollows() {
        TextChunker chunker = new TextChunker(1, List.of("."));
        assertEquals(List.of(), chunker.add("It costs 3."));
        assertEquals(List.of(), chunker.add("5"));
        assertEquals(List.of("It costs 3.5 dollars."), chunker.add(" dollars. "));
    }
}
