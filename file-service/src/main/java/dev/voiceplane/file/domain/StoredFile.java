package dev.voiceplane.file.domain;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A file whose bytes are in the FileStore under {@link #storageKey} (named so: {@code File} is java.io's). */
@Entity
@Table(name = "files")
public class StoredFile extends OrgScopedEntity {

    public static final String INDEXED = "indexed";
    public static final String NOT_INDEXED = "not_indexed";

    @Column(nullable = false)
    public String name;

    @Column(name = "original_name", nullable = false)
    public String originalName;

    @Column(nullable = false)
    public long bytes;

    @Column(nullable = false)
    public String mimetype;

    /** {@link #INDEXED} when its text is stored, {@link #NOT_INDEXED} otherwise. */
    @Column(nullable = false)
    public String status;

    @Column(nullable = false)
    public String bucket;

    @Column(name = "storage_key", nullable = false)
    public String storageKey;
}
