package dev.voiceplane.file.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FileNamesTest {

    @Test
    void pathsControlAndFormattingCharactersAreDropped() {
        assertEquals("passwd.txt", FileNames.original("../../etc/pa\u0000ss\u202ewd.txt"));
        assertEquals("report.txt", FileNames.original("C:\\Users\\me\\report.txt"));
        assertEquals("a b.txt", FileNames.original("  a\u200b b.txt\r\n"));
        assertEquals("file", FileNames.original(".."));
        assertEquals("file", FileNames.original("dir/"));
        assertEquals("file", FileNames.original(null));
        assertEquals("Ünïcødé 😀.md", FileNames.original("Ünïcødé 😀.md"));
    }

    @Test
    void lengthsAreBoundedWithoutSplittingACharacter() {
        assertEquals(255, FileNames.original("x".repeat(400)).length());
        String name = FileNames.name("y".repeat(39) + "😀z");
        assertEquals("y".repeat(39), name);
        assertEquals("short.txt", FileNames.name("short.txt"));
    }
}
