package dev.voiceplane.kit.sample;

import dev.voiceplane.kit.auth.RouteVerifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A carrier-like signature for the kit's tests: {@code X-Test-Signature} is the hex HMAC-SHA256 of the body with
 * {@link #KEY}; {@code X-Test-Org} names the organisation the webhook is for. "boom" in the org header makes the
 * verifier throw, which must refuse the request.
 */
@ApplicationScoped
public class TestSignature implements RouteVerifier {

    static final String KEY = "test-signing-key";

    @Override
    public Verdict verify(ContainerRequestContext request, byte[] body) {
        String org = request.getHeaderString("X-Test-Org");
        if ("boom".equals(org)) {
            throw new IllegalStateException("verifier failure");
        }
        String offered = request.getHeaderString("X-Test-Signature");
        if (offered == null || !MessageDigest.isEqual(offered.getBytes(StandardCharsets.US_ASCII),
                sign(body).getBytes(StandardCharsets.US_ASCII))) {
            return Verdict.refuse(403, "signature does not match");
        }
        return org == null ? Verdict.accept() : Verdict.acceptFor(org);
    }

    static String sign(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
