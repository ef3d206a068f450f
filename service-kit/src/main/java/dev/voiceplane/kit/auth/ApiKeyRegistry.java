package dev.voiceplane.kit.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The API keys this deployment accepts, each bound to one organisation. Parsed from
 * {@code VOICE_API_KEYS}: comma-separated {@code <orgId>:<key>} (plain, for local use) or
 * {@code <orgId>:sha256:<hex>} (only the key's hash, for production secrets). Keys are compared as
 * SHA-256 digests in constant time, and every entry is always compared, so timing tells nothing.
 */
public final class ApiKeyRegistry {

    private static final Pattern ORG_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");

    private final List<Entry> entries;

    private record Entry(String orgId, byte[] digest) {
    }

    private ApiKeyRegistry(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    public static ApiKeyRegistry parse(String configured) {
        List<Entry> entries = new ArrayList<>();
        if (configured == null || configured.isBlank()) {
            return new ApiKeyRegistry(entries);
        }
        int position = 0;
        for (String raw : configured.split(",")) {
            position++;
            String item = raw.strip();
            if (item.isEmpty()) {
                continue;
            }
            int colon = item.indexOf(':');
            if (colon <= 0 || colon == item.length() - 1) {
                throw new IllegalArgumentException("VOICE_API_KEYS entry " + position
                        + " is not <orgId>:<key> or <orgId>:sha256:<hex>");
            }
            String orgId = item.substring(0, colon);
            String secret = item.substring(colon + 1);
            if (!ORG_ID.matcher(orgId).matches()) {
                throw new IllegalArgumentException("VOICE_API_KEYS entry " + position
                        + ": the organisation id may only hold letters, digits, '.', '_' and '-' (at most 64)");
            }
            if (secret.startsWith("sha256:")) {
                String hex = secret.substring("sha256:".length());
                if (!SHA256_HEX.matcher(hex).matches()) {
                    throw new IllegalArgumentException("VOICE_API_KEYS entry " + position
                            + ": sha256: must be followed by 64 hexadecimal digits");
                }
                entries.add(new Entry(orgId, HexFormat.of().parseHex(hex.toLowerCase())));
            } else {
                entries.add(new Entry(orgId, sha256(secret)));
            }
        }
        return new ApiKeyRegistry(entries);
    }

    /** The organisation the key belongs to; empty for an unknown key. */
    public Optional<String> organisationOf(String presentedKey) {
        byte[] digest = sha256(presentedKey);
        String match = null;
        for (Entry entry : entries) {
            if (MessageDigest.isEqual(entry.digest(), digest) && match == null) {
                match = entry.orgId();
            }
        }
        return Optional.ofNullable(match);
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    public static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
