package dev.voiceplane.file.service;

/**
 * The client's file name made safe to store and show: no directories (either separator), no control or
 * bidirectional-formatting characters, at most {@value #MAX_ORIGINAL} characters; {@code "file"} when nothing is left.
 * The File's {@code name} is that, cut to {@value #MAX_NAME} characters (never inside a surrogate pair).
 */
public final class FileNames {

    public static final int MAX_ORIGINAL = 255;
    public static final int MAX_NAME = 40;

    private FileNames() {
    }

    public static String original(String clientName) {
        String name = clientName == null ? "" : clientName;
        name = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
        StringBuilder kept = new StringBuilder(name.length());
        name.codePoints()
                .filter(FileNames::printable)
                .forEach(kept::appendCodePoint);
        String cleaned = kept.toString().strip();
        if (cleaned.equals(".") || cleaned.equals("..")) {
            cleaned = "";
        }
        return cleaned.isEmpty() ? "file" : cut(cleaned, MAX_ORIGINAL);
    }

    public static String name(String originalName) {
        return cut(originalName, MAX_NAME);
    }

    private static boolean printable(int codePoint) {
        int type = Character.getType(codePoint);
        return type != Character.CONTROL && type != Character.FORMAT && type != Character.UNASSIGNED
                && type != Character.SURROGATE && type != Character.LINE_SEPARATOR
                && type != Character.PARAGRAPH_SEPARATOR && type != Character.PRIVATE_USE;
    }

    private static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end).strip();
    }
}
