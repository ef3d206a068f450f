package dev.voiceplane.credential.domain;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A provider credential. Its secret fields are only ever stored sealed, in {@link #secret}. */
@Entity
@Table(name = "credentials")
public class Credential extends OrgScopedEntity {

    @Column(nullable = false)
    public String provider;

    public String name;

    /** Twilio's account SID: an identifier, not a secret, so it is shown. */
    @Column(name = "account_sid")
    public String accountSid;

    @Column(nullable = false)
    public byte[] secret;

    /** The associated data that ties a sealed secret to this row. */
    public String sealingContext() {
        return "credential:" + orgId + ":" + id;
    }
}
