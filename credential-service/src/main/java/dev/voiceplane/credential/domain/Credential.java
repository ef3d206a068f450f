package dev.voiceplane.credential.domain;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.util.List;

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

    /**
     * The other fields that are not secrets (an azure region, an azure-openai endpoint, ...): a JSON object as
     * written, or null when the credential has none.
     */
    @org.hibernate.annotations.JdbcTypeCode(org.hibernate.type.SqlTypes.JSON)
    @Column(name = "fields")
    public String fields;

    @Column(nullable = false)
    public byte[] secret;

    /** The same columns read without the ORM, for reads outside a transaction (kit {@code PlainReads}). */
    public static final RowMapper<Credential> ROWS = new RowMapper<>("credentials",
            List.of("provider", "name", "account_sid", "secret", "fields"), Credential::new, (credential, row, first) -> {
                credential.provider = row.getString(first);
                credential.name = row.getString(first + 1);
                credential.accountSid = row.getString(first + 2);
                credential.secret = row.getBytes(first + 3);
                credential.fields = row.getString(first + 4);
            });

    /** The associated data that ties a sealed secret to this row. */
    public String sealingContext() {
        return "credential:" + orgId + ":" + id;
    }
}
