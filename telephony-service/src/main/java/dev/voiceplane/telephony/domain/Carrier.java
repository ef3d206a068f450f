package dev.voiceplane.telephony.domain;

import dev.voiceplane.contracts.catalog.Providers;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/** The carriers numbers can be imported from. */
public enum Carrier {
    TWILIO,
    VONAGE;

    /** Provider values accepted on the wire: the real identifiers and the interface document's neutral words. */
    public static final Set<String> ACCEPTED = java.util.Collections.unmodifiableSet(
            new TreeSet<>(Set.of("twilio", "vonage", "carrierA", "carrierB")));

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Carrier of(String provider) {
        return switch (Providers.canonical(provider)) {
            case "twilio" -> TWILIO;
            case "vonage" -> VONAGE;
            default -> throw new IllegalArgumentException("not a carrier: " + provider);
        };
    }

    public static boolean accepts(String provider) {
        return provider != null && ACCEPTED.contains(provider);
    }
}
