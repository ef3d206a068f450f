package dev.voiceplane.call;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No two source files of the service name each other in a circle through their imports (or fully qualified names),
 * such as {@code delivery/Targets} and {@code service/AssistantSettings} did: the dependency between them runs one
 * way. Read from the sources, comments left out; a name in a javadoc is no dependency.
 */
class ImportCirclesTest {

    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern NAME = Pattern.compile("dev\\.voiceplane\\.call(?:\\.\\w+)+");
    private static final Pattern COMMENT = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");

    @Test
    void noSourceFilesImportEachOtherInACircle() throws IOException {
        Map<String, Path> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(SOURCES)) {
            walk.filter(file -> file.toString().endsWith(".java")).forEach(file -> files.put(
                    SOURCES.relativize(file).toString().replaceAll("\\.java$", "").replace('/', '.'), file));
        }
        Map<String, Set<String>> uses = new HashMap<>();
        for (Map.Entry<String, Path> file : files.entrySet()) {
            Set<String> named = new TreeSet<>();
            Matcher names = NAME.matcher(COMMENT.matcher(Files.readString(file.getValue())).replaceAll(""));
            while (names.find()) {
                // the longest prefix that is a file: Targets for dev.voiceplane.call.delivery.Targets.Target
                String name = names.group();
                while (name.contains(".") && !files.containsKey(name)) {
                    name = name.substring(0, name.lastIndexOf('.'));
                }
                if (files.containsKey(name) && !name.equals(file.getKey())) {
                    named.add(name);
                }
            }
            uses.put(file.getKey(), named);
        }
        assertEquals(List.of(), circles(uses), "source files that import each other in a circle");
    }

    /** The strongly connected components of more than one file (Tarjan). */
    private static List<Set<String>> circles(Map<String, Set<String>> uses) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> circles = new ArrayList<>();
        for (String file : new TreeSet<>(uses.keySet())) {
            if (!index.containsKey(file)) {
                visit(file, uses, index, low, stack, circles);
            }
        }
        return circles;
    }

    private static void visit(String file, Map<String, Set<String>> uses, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, List<Set<String>> circles) {
        index.put(file, index.size());
        low.put(file, index.get(file));
        stack.push(file);
        for (String used : uses.get(file)) {
            if (!index.containsKey(used)) {
                visit(used, uses, index, low, stack, circles);
                low.put(file, Math.min(low.get(file), low.get(used)));
            } else if (stack.contains(used)) {
                low.put(file, Math.min(low.get(file), index.get(used)));
            }
        }
        if (low.get(file).equals(index.get(file))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                component.add(member);
            } while (!member.equals(file));
            if (component.size() > 1) {
                circles.add(component);
            }
        }
    }
}
