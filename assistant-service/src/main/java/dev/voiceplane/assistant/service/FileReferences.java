package dev.voiceplane.assistant.service;

import dev.voiceplane.assistant.client.FileCatalogue;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.kit.persistence.Ids;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Knowledge-base file ids must name files of the caller's organisation. They are checked with file-service,
 * in one lookup for everything a request names, before anything is written.
 */
@ApplicationScoped
public class FileReferences {

    /** The file ids one knowledge base names, and where it sits in the request body. */
    public record Reference(String path, List<String> fileIds) {
    }

    private final FileCatalogue catalogue;

    public FileReferences(FileCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /**
     * The knowledge-base reference of an assistant written at {@code prefix} ("" at the top level,
     * "members.0.assistant." in a squad).
     */
    public static List<Reference> in(String prefix, AssistantBody assistant) {
        if (assistant == null || assistant.model == null || assistant.model.knowledgeBase() == null) {
            return List.of();
        }
        return List.of(new Reference(prefix + "model.knowledgeBase.fileIds",
                assistant.model.knowledgeBase().fileIds()));
    }

    /**
     * One message per reference that names unknown files ({@code "model.knowledgeBase.fileIds contains unknown file
     * ids: <id>, <id>"}); empty when all are known. An id that is not a UUID names no file and is not asked about.
     * Throws the 503 when file-service cannot answer.
     */
    public List<String> problems(String orgId, List<Reference> references) {
        Set<String> asked = new TreeSet<>();
        for (Reference reference : references) {
            for (String id : reference.fileIds()) {
                if (Ids.parse(id).isPresent()) {
                    asked.add(id);
                }
            }
        }
        Set<String> found = asked.isEmpty() ? Set.of() : catalogue.existing(orgId, List.copyOf(asked));
        List<String> problems = new ArrayList<>();
        for (Reference reference : references) {
            Set<String> unknown = new LinkedHashSet<>(reference.fileIds());
            unknown.removeAll(found);
            if (!unknown.isEmpty()) {
                problems.add(reference.path() + " contains unknown file ids: " + String.join(", ", unknown));
            }
        }
        return problems;
    }
}
