package dev.voiceplane.call.delivery;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * The SSRF rule for customer URLs (docs/webhooks.md, "Security: the SSRF rule"): a target host is resolved when it is
 * called, and refused when any of its addresses is loopback, private, carrier-grade NAT, link-local (cloud metadata),
 * unique-local, multicast, unspecified, broadcast or reserved, including those addresses hidden in IPv4-mapped,
 * IPv4-compatible and NAT64 IPv6 forms. The caller connects to the address this returns, so a name that resolves
 * differently a moment later (DNS rebinding) changes nothing. {@code allowPrivate} (self-hosting, the local stack) lets
 * loopback, private and unique-local addresses through; link-local and metadata stay refused.
 */
public final class AddressGuard {

    /** A target the rule refuses (never retried: the answer would be the same). */
    public static final class Refused extends Exception {
        public Refused(String message) {
            super(message, null, false, false);
        }
    }

    private final boolean allowPrivate;

    public AddressGuard(boolean allowPrivate) {
        this.allowPrivate = allowPrivate;
    }

    public boolean allowsPrivate() {
        return allowPrivate;
    }

    /** The address to connect to for {@code host}; {@link UnknownHostException} when it does not resolve. */
    public InetAddress resolve(String host) throws Refused, UnknownHostException {
        String name = host.toLowerCase(Locale.ROOT);
        if (name.startsWith("[") && name.endsWith("]")) {
            name = name.substring(1, name.length() - 1);
        }
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        if (name.equals("metadata.google.internal") || name.equals("metadata")) {
            throw new Refused("the server URL's host " + host + " is a cloud metadata service");
        }
        InetAddress[] addresses = InetAddress.getAllByName(name);
        for (InetAddress address : addresses) {
            String why = refusal(address);
            if (why != null) {
                throw new Refused("the server URL's host " + host + " resolves to " + address.getHostAddress()
                        + ", " + why + (allowPrivate || why.startsWith("link-local") ? ""
                                : " (VOICE_WEBHOOK_ALLOW_PRIVATE=true allows private targets)"));
            }
        }
        return addresses[0];
    }

    /** Why the address is refused, or null. */
    String refusal(InetAddress address) {
        if (address instanceof Inet6Address v6) {
            byte[] b = v6.getAddress();
            Inet4Address embedded = embeddedV4(b);
            if (embedded != null) {
                return refusal(embedded);
            }
            if (address.isLinkLocalAddress()) {
                return "link-local address";
            }
            if (address.isMulticastAddress()) {
                return "a multicast address";
            }
            if (address.isAnyLocalAddress()) {
                return "the unspecified address";
            }
            if (address.isLoopbackAddress()) {
                return privateUnlessAllowed("a loopback address");
            }
            if ((b[0] & 0xfe) == 0xfc || address.isSiteLocalAddress()) {
                // fc00::/7 unique-local (the AWS metadata service's fd00:ec2::254 is one); fec0::/10 deprecated site-local
                return b[0] == (byte) 0xfd && b[1] == 0x00 && b[2] == 0x0e && b[3] == (byte) 0xc2
                        ? "a cloud metadata address" : privateUnlessAllowed("a unique-local address");
            }
            if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x01 && b[2] == 0x0d && (b[3] & 0xff) == 0xb8) {
                return "a documentation address";
            }
            return null;
        }
        byte[] b = address.getAddress();
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        if (address.isLinkLocalAddress()) {
            return "link-local address (cloud metadata lives there)";
        }
        if (first == 0) {
            return "an unspecified address";
        }
        if (address.isMulticastAddress()) {
            return "a multicast address";
        }
        if (first >= 240) {
            return "a reserved or broadcast address";
        }
        if (first == 192 && second == 0 && (b[2] & 0xff) == 0) {
            return "an IETF protocol address";
        }
        if (first == 198 && (second == 18 || second == 19)) {
            return "a benchmarking address";
        }
        if (address.isLoopbackAddress()) {
            return privateUnlessAllowed("a loopback address");
        }
        if (address.isSiteLocalAddress()) {
            return privateUnlessAllowed("a private address");
        }
        if (first == 100 && (second & 0xc0) == 64) {
            return privateUnlessAllowed("a carrier-grade NAT address");
        }
        return null;
    }

    private String privateUnlessAllowed(String what) {
        return allowPrivate ? null : what;
    }

    /** The IPv4 address inside ::ffff:a.b.c.d, ::a.b.c.d and 64:ff9b::a.b.c.d, or null. */
    private static Inet4Address embeddedV4(byte[] b) {
        boolean mapped = allZero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
        boolean compatible = allZero(b, 0, 12) && !(allZero(b, 12, 15) && (b[15] == 0 || b[15] == 1));
        boolean nat64 = b[0] == 0 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b
                && allZero(b, 4, 12);
        if (!mapped && !compatible && !nat64) {
            return null;
        }
        try {
            return (Inet4Address) InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
