package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository stands on its own: every relative link in its Markdown documentation names a file or directory
 * inside it, no page or source file points at files outside it, and results are named by date and commit, not by
 * the stretch of work that produced them.
 */
class DocumentationLinksTest {

    private static final Path HOME = RepositoryFiles.home();
    /** {@code [text](target)}; the target ends at whitespace (a title) or the closing parenthesis. */
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** The specification the project was built from, which is not part of the repository, by path or file name. */
    private static final Pattern OUTSIDE = Pattern.compile(
            "shared/(spec|guides)/|\\b(interface|compatibility|carriers-and-files|call-lifecycle|code-style)\\.md");
    /** A session's ordinal or number, or a "working" period: labels that mean nothing to a reader of the repository. */
    private static final Pattern WORKING_PERIOD = Pattern.compile(
            "(?i)\\bsession \\d+\\b|\\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|previous|last|this) "
                    + "(working )?session\\b|\\bworking (period|session)\\b");
    private static final Pattern SOURCE_ENDINGS = Pattern.compile(
            "\\.(java|properties|ya?ml|xml|sh|html|js|conf|sql|json)$|^(run|up|Dockerfile.*)$");

    @Test
    void everyRelativeLinkResolvesToAFileInTheRepository() {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            Matcher links = LINK.matcher(read(page));
            while (links.find()) {
                String target = links.group(1);
                if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") || target.startsWith("#")) {
                    continue; // https:, mailto:, and anchors within the page
                }
                String file = target.replaceFirst("#.*$", "");
                Path resolved = page.getParent().resolve(file).normalize();
                if (!resolved.startsWith(HOME) || !Files.exists(resolved)) {
                    broken.add(HOME.relativize(page) + ": " + target);
                }
            }
        }
        assertEquals(List.of(), broken, "links to nothing in the repository");
    }

    @Test
    void noPageNamesTheSpecificationOutsideTheRepository() {
        List<String> outside = new ArrayList<>();
        for (Path page : pages()) {
            String[] lines = read(page).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (OUTSIDE.matcher(lines[i]).find()) {
                    outside.add(HOME.relativize(page) + ":" + (i + 1) + ": " + lines[i].strip());
                }
            }
        }
        assertEquals(List.of(), outside, "pages that point outside the repository");
    }

    @Test
    void noSourceFileNamesTheSpecificationOutsideTheRepository() {
        assertEquals(List.of(), linesMatching(sources(), OUTSIDE), "source files that point outside the repository");
    }

    @Test
    void resultsAreNamedByDateAndCommitNotByWorkingPeriod() {
        List<Path> everything = new ArrayList<>(pages());
        everything.addAll(sources());
        assertEquals(List.of(), linesMatching(everything, WORKING_PERIOD), "lines that name who or when by work session");
    }

    @Test
    void theDocumentationIsFound() {
        List<Path> pages = pages();
        assertTrue(pages.contains(HOME.resolve("README.md")), pages.toString());
        assertTrue(pages.contains(HOME.resolve("docs/architecture.md")), pages.toString());
    }

    private static List<String> linesMatching(List<Path> files, Pattern pattern) {
        List<String> found = new ArrayList<>();
        for (Path file : files) {
            String[] lines = read(file).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (pattern.matcher(lines[i]).find()) {
                    found.add(HOME.relativize(file) + ":" + (i + 1) + ": " + lines[i].strip());
                }
            }
        }
        return found;
    }

    /** The source, build, configuration and script files, where comments might cite what a reader cannot open. */
    private static List<Path> sources() {
        return files(SOURCE_ENDINGS);
    }

    /** README.md and every Markdown page under docs/ and the modules (not build output, not node_modules). */
    private static List<Path> pages() {
        return files(Pattern.compile("\\.md$"));
    }

    private static List<Path> files(Pattern name) {
        try (Stream<Path> files = Files.walk(HOME)) {
            return files.filter(path -> name.matcher(path.getFileName().toString()).find())
                    .filter(Files::isRegularFile)
                    .filter(path -> {
                        String relative = HOME.relativize(path).toString();
                        return !relative.contains("target/") && !relative.contains("node_modules/")
                                && !relative.startsWith(".");
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path page) {
        try {
            return Files.readString(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
