package dev.voiceplane.contracts.file;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Answer of {@code POST /internal/file/search}: the best passages first (empty when nothing matches). */
@RegisterForReflection
public record Passages(List<Passage> passages) {

    /** One passage of a file's extracted text and its full-text rank (higher is better; only the order means much). */
    @RegisterForReflection
    public record Passage(String fileId, String text, double score) {
    }
}
