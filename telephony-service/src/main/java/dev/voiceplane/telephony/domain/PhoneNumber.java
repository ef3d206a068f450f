package dev.voiceplane.telephony.domain;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;

/**
 * A phone number imported from a carrier. Secret fields are only ever stored sealed (see {@link #sealingContext});
 * {@link #carrierAccount} with {@link #number} resolves a carrier webhook to this row.
 */
@Entity
@Table(name = "phone_numbers")
public class PhoneNumber extends OrgScopedEntity {

    /** The provider as the client wrote it ({@code twilio}, {@code vonage} or a neutral alias). */
    @Column(nullable = false)
    public String provider;

    @Column(nullable = false)
    public String carrier;

    @Column(nullable = false)
    public String number;

    public String name;

    @Column(name = "assistant_id")
    public String assistantId;

    @Column(name = "server_url")
    public String serverUrl;

    @Column(name = "server_url_secret")
    public byte[] serverUrlSecret;

    /** The {@code server} object's custom headers (JSON object text; url and secret are the two columns above). */
    @org.hibernate.annotations.JdbcTypeCode(org.hibernate.type.SqlTypes.JSON)
    @Column(name = "server_headers")
    public String serverHeaders;

    @Column(name = "server_timeout_seconds")
    public java.math.BigDecimal serverTimeoutSeconds;

    /** The client wrote the {@code server} object: it is answered (with serverUrl), as written. */
    @Column(name = "server_object", nullable = false)
    public boolean serverObject;

    /** Twilio's account SID, Vonage's API key: identifiers, not secrets. */
    @Column(name = "carrier_account", nullable = false)
    public String carrierAccount;

    @Column(name = "twilio_auth_token")
    public byte[] twilioAuthToken;

    @Column(name = "credential_id")
    public String credentialId;

    /** Twilio's incoming phone number SID ({@code PN...}), or Vonage's country code of the number. */
    @Column(name = "carrier_number_id")
    public String carrierNumberId;

    @Column(name = "previous_voice_url")
    public String previousVoiceUrl;

    @Column(name = "previous_status_callback")
    public String previousStatusCallback;

    @Column(name = "vonage_application_id")
    public String vonageApplicationId;

    @Column(name = "vonage_private_key")
    public byte[] vonagePrivateKey;

    /** The Vonage application the number was linked to before the import: a delete links it back. */
    @Column(name = "previous_vonage_application_id")
    public String previousVonageApplicationId;

    /**
     * True for a number read back from an inline dial (never persisted as a phone number): its Vonage application
     * was created for one call only.
     */
    @Transient
    public boolean inline;

    /** For an inline number: call-service's id of the one call it was dialled for. */
    @Transient
    public String inlineCallId;

    public Carrier carrier() {
        return Carrier.of(carrier);
    }

    /** The associated data that ties a sealed field to this row and this field. */
    public String sealingContext(String field) {
        return "phone-number:" + orgId + ":" + id + ":" + field;
    }
}
