package dev.voiceplane.kit.lookup;

import dev.voiceplane.kit.persistence.Ids;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/** Answer of a lookup: the asked-for ids that exist in the organisation, in the order asked, each once. */
@RegisterForReflection
public record IdLookupResult(List<String> found) {

    /**
     * Answers a lookup with one query: {@code existing} gets the asked ids that are UUIDs (an id that is not one
     * names nothing) and returns those that exist.
     */
    public static IdLookupResult of(List<String> asked, Function<Collection<UUID>, Set<UUID>> existing) {
        Map<String, UUID> parsed = new LinkedHashMap<>();
        for (String id : asked) {
            Ids.parse(id).ifPresent(uuid -> parsed.putIfAbsent(id, uuid));
        }
        Set<UUID> found = parsed.isEmpty() ? Set.of() : existing.apply(Set.copyOf(parsed.values()));
        return new IdLookupResult(parsed.entrySet().stream()
                .filter(entry -> found.contains(entry.getValue()))
                .map(Map.Entry::getKey)
                .toList());
    }
}
