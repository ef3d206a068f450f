package dev.voiceplane.file.domain;

import dev.voiceplane.kit.persistence.OrgScopedId;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.util.UUID;

/** The text extracted from an indexed file, for the knowledge base; deleted with the file. */
@Entity
@Table(name = "file_texts")
@IdClass(OrgScopedId.class)
public class FileText {

    @Id
    @Column(name = "org_id", nullable = false, updatable = false)
    public String orgId;

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(nullable = false)
    public String text;
}
