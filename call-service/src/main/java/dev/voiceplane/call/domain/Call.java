package dev.voiceplane.call.domain;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.Instant;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A call as lists read it: what is filtered on, the status machine's columns, and the small wire fields as JSON.
 * The frozen configuration, transcript and messages live apart (call_documents). The column {@code outbox_seq}
 * (the number of the call's last server message) is deliberately not mapped: only {@code Outbox.add} changes it,
 * in the database, so a flush of this entity can never write back a number read before another message was written.
 */
@Entity
@Table(name = "calls")
public class Call extends OrgScopedEntity {

    /** Stored as its wire text (as are status and endedReason), so the columns hold exactly what the API shows. */
    @Convert(converter = CallType.Column.class)
    @Column(nullable = false)
    public CallType type;

    @Convert(converter = CallStatus.Column.class)
    @Column(nullable = false)
    public CallStatus status;

    @Convert(converter = EndedReason.Column.class)
    @Column(name = "ended_reason")
    public EndedReason endedReason;

    @Column(name = "started_at")
    public Instant startedAt;

    @Column(name = "ended_at")
    public Instant endedAt;

    @Column(name = "assistant_id")
    public String assistantId;

    @Column(name = "squad_id")
    public String squadId;

    @Column(name = "phone_number_id")
    public String phoneNumberId;

    @Column(name = "customer_id")
    public String customerId;

    public String name;

    @Column(name = "phone_call_provider")
    public String phoneCallProvider;

    @Column(name = "phone_call_provider_id")
    public String phoneCallProviderId;

    @Column(name = "phone_call_transport")
    public String phoneCallTransport;

    public BigDecimal cost;

    @Column(name = "max_duration_seconds", nullable = false)
    public int maxDurationSeconds;

    @Column(name = "last_carrier_sequence")
    public Long lastCarrierSequence;

    @Column(name = "carrier_duration_seconds")
    public Long carrierDurationSeconds;

    @Column(name = "runtime_ended", nullable = false)
    public boolean runtimeEnded;

    /** When the voice runtime attached to the call's media; null while (or if never) attached. */
    @Column(name = "runtime_attached_at")
    public Instant runtimeAttachedAt;

    /** The internal address of the runtime replica that holds the call's media, once it gave it (V6). */
    @Column(name = "runtime_url")
    public String runtimeUrl;

    @Column(nullable = false)
    public boolean finalised;

    /** Dial attempts made so far (outbound calls; the creating request's is the first). */
    @Column(name = "dial_attempts", nullable = false)
    public int dialAttempts;

    /** When the next dial attempt is due (also the lease of one in flight); null when none is pending. */
    @Column(name = "next_dial_at")
    public Instant nextDialAt;

    /** When the carrier call was placed. */
    @Column(name = "dialled_at")
    public Instant dialledAt;

    /** customer, metadata, webCallUrl, phoneCallProviderDetails, costBreakdown, analysis, recording URLs, usage. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public String details;

    public boolean ended() {
        return status == CallStatus.ENDED;
    }

    /** What this call's sealed secrets are bound to. */
    public String sealingContext() {
        return "call:" + orgId + ":" + id;
    }
}
