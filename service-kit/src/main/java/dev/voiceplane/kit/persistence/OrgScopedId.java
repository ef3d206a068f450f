package dev.voiceplane.kit.persistence;

import java.io.Serializable;
import java.util.Objects;
import java.util.UUID;

/** Primary key of every stored resource: the organisation and the id, so ids never cross organisations. */
public class OrgScopedId implements Serializable {

    public String orgId;
    public UUID id;

    public OrgScopedId() {
    }

    public OrgScopedId(String orgId, UUID id) {
        this.orgId = orgId;
        this.id = id;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OrgScopedId that && Objects.equals(orgId, that.orgId) && Objects.equals(id, that.id);
    }

    @Override
    public int hashCode() {
        return Objects.hash(orgId, id);
    }
}
