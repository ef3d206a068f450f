package dev.voiceplane.call.domain;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
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

    /**
     * The wire columns as stored ({@code type}, {@code status}, {@code endedReason}), set only by {@link #AS_STORED}
     * for a row whose texts this version may not know; the typed field of such a text is null.
     */
    @Transient
    public Map<String, String> storedWire;

    /**
     * How a call's row reads for its answer when the ORM cannot read it (a wire column holds a text no constant has:
     * an operator's hand edit, or a value a newer release wrote): the columns a {@code CallView} shows, each wire
     * text kept as stored and typed where it can be. The entity is for answering only: nothing writes it back.
     */
    public static final RowMapper<Call> AS_STORED = new RowMapper<>("calls", List.of("type", "status", "ended_reason",
            "started_at", "ended_at", "assistant_id", "squad_id", "phone_number_id", "customer_id", "name",
            "phone_call_provider", "phone_call_provider_id", "phone_call_transport", "cost", "details"), Call::new,
            (call, row, first) -> {
                String type = row.getString(first);
                String status = row.getString(first + 1);
                String endedReason = row.getString(first + 2);
                call.storedWire = new java.util.HashMap<>();
                call.storedWire.put("type", type);
                call.storedWire.put("status", status);
                call.storedWire.put("endedReason", endedReason);
                call.type = WireValue.find(CallType.class, type).orElse(null);
                call.status = WireValue.find(CallStatus.class, status).orElse(null);
                call.endedReason = WireValue.find(EndedReason.class, endedReason).orElse(null);
                call.startedAt = instant(row.getObject(first + 3, OffsetDateTime.class));
                call.endedAt = instant(row.getObject(first + 4, OffsetDateTime.class));
                call.assistantId = row.getString(first + 5);
                call.squadId = row.getString(first + 6);
                call.phoneNumberId = row.getString(first + 7);
                call.customerId = row.getString(first + 8);
                call.name = row.getString(first + 9);
                call.phoneCallProvider = row.getString(first + 10);
                call.phoneCallProviderId = row.getString(first + 11);
                call.phoneCallTransport = row.getString(first + 12);
                call.cost = row.getBigDecimal(first + 13);
                call.details = row.getString(first + 14);
            });

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }

    /** The call's type as the API shows it: its wire text, or the column's text when this version has no constant. */
    public String typeText() {
        return type != null ? type.wire() : stored("type");
    }

    public String statusText() {
        return status != null ? status.wire() : stored("status");
    }

    public String endedReasonText() {
        return endedReason != null ? endedReason.wire() : stored("endedReason");
    }

    private String stored(String column) {
        return storedWire == null ? null : storedWire.get(column);
    }

    public boolean ended() {
        return status == CallStatus.ENDED;
    }

    /** What this call's sealed secrets are bound to. */
    public String sealingContext() {
        return "call:" + orgId + ":" + id;
    }
}
