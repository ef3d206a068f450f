package dev.voiceplane.call.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/**
 * The SSRF rule on resolved addresses (docs/webhooks.md, "Security: the SSRF rule"). IP literals and /etc/hosts names
 * only: offline.
 */
class AddressGuardTest {

    final AddressGuard strict = new AddressGuard(false);
    final AddressGuard selfHosted = new AddressGuard(true);

    @Test
    void internalAddressesAreRefused() {
        for (String host : new String[] {"127.0.0.1", "127.8.9.10", "localhost", "10.1.2.3", "172.16.0.1",
                "172.31.255.255", "192.168.1.1", "100.64.0.1", "169.254.169.254", "0.0.0.0", "224.0.0.1",
                "255.255.255.255", "240.0.0.1", "198.18.0.1", "::1", "[::1]", "::", "fe80::1", "fc00::1", "fd12::1",
                "fd00:ec2::254", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
                "64:ff9b::a9fe:a9fe", "64:ff9b::7f00:1", "metadata.google.internal", "0x7f.0.0.1"}) {
            Exception refused = assertThrows(Exception.class, () -> strict.resolve(host), host);
            assertTrue(refused instanceof AddressGuard.Refused || refused instanceof java.net.UnknownHostException,
                    host + ": " + refused);
        }
    }

    @Test
    void publicAddressesPass() throws Exception {
        for (String host : new String[] {"93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111",
                "::ffff:8.8.8.8"}) {
            InetAddress address = strict.resolve(host);
            assertEquals(InetAddress.getByName(host.replace("[", "").replace("]", "")), address, host);
        }
    }

    @Test
    void allowingPrivateTargetsStillRefusesMetadataAndLinkLocal() throws Exception {
        assertEquals(InetAddress.getByName("127.0.0.1"), selfHosted.resolve("127.0.0.1"));
        selfHosted.resolve("10.0.0.1");
        selfHosted.resolve("fd12::1");
        selfHosted.resolve("localhost");
        for (String host : new String[] {"169.254.169.254", "fe80::1", "fd00:ec2::254", "metadata.google.internal",
                "::ffff:169.254.169.254"}) {
            assertThrows(AddressGuard.Refused.class, () -> selfHosted.resolve(host), host);
        }
    }

    @Test
    void theRefusalNamesTheAddressAndTheWayOut() {
        AddressGuard.Refused refused = assertThrows(AddressGuard.Refused.class, () -> strict.resolve("localhost"));
        assertTrue(refused.getMessage().contains("loopback"), refused.getMessage());
        assertTrue(refused.getMessage().contains("VOICE_WEBHOOK_ALLOW_PRIVATE"), refused.getMessage());
    }
}
