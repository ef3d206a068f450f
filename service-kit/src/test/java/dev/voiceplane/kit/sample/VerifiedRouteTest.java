package dev.voiceplane.kit.sample;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Routes declared {@code @VerifiedBy} a verifier: carrier-style webhooks without an API key. */
@QuarkusTest
class VerifiedRouteTest {

    private static final String BODY = "CallSid=CA1&From=%2B15550001111";

    @Test
    void aCorrectSignatureOpensTheRouteAndTheResourceReadsTheSameBytes() {
        given().header("X-Test-Signature", TestSignature.sign(BODY.getBytes()))
                .contentType("application/x-www-form-urlencoded").body(BODY)
                .when().post("/hook/signed")
                .then().statusCode(200).body("body", equalTo(BODY)).body("org", equalTo("-"));
    }

    @Test
    void theVerifierMayNameTheOrganisation() {
        given().header("X-Test-Signature", TestSignature.sign(BODY.getBytes())).header("X-Test-Org", "org-x")
                .contentType("application/x-www-form-urlencoded").body(BODY)
                .when().post("/hook/signed")
                .then().statusCode(200).body("org", equalTo("org-x"));
    }

    @Test
    void aWrongOrMissingSignatureIsRefusedInTheErrorShape() {
        given().header("X-Test-Signature", TestSignature.sign("other".getBytes()))
                .contentType("application/x-www-form-urlencoded").body(BODY)
                .when().post("/hook/signed")
                .then().statusCode(403).body("statusCode", equalTo(403)).body("error", equalTo("Forbidden"))
                .body("message", equalTo("signature does not match"));
        given().contentType("application/x-www-form-urlencoded").body(BODY)
                .when().post("/hook/signed")
                .then().statusCode(403);
    }

    @Test
    void anApiKeyDoesNotOpenAVerifiedRoute() {
        TestClients.orgA().contentType("application/x-www-form-urlencoded").body(BODY)
                .when().post("/hook/signed")
                .then().statusCode(403);
    }

    @Test
    void aSignatureDoesNotOpenARouteWithoutTheDeclaration() {
        given().header("X-Test-Signature", TestSignature.sign(BODY.getBytes()))
                .contentType("application/x-www-form-urlencoded").body(BODY)
                .when().post("/hook/unsigned")
                .then().statusCode(401);
        TestClients.orgA().contentType("application/x-www-form-urlencoded").body(BODY)
                .when().post("/hook/unsigned")
                .then().statusCode(200).body("org", equalTo(TestKeys.ORG_A));
    }

    @Test
    void aVerifierThatFailsRefuses() {
        given().header("X-Test-Signature", TestSignature.sign(BODY.getBytes())).header("X-Test-Org", "boom")
                .contentType("application/x-www-form-urlencoded").body(BODY)
                .when().post("/hook/signed")
                .then().statusCode(403).body("statusCode", equalTo(403));
    }

    @Test
    void theDeclarationNeverOpensAnInternalRoute() {
        given().header("X-Test-Signature", TestSignature.sign(BODY.getBytes()))
                .contentType("application/x-www-form-urlencoded").body(BODY)
                .when().post("/internal/hook")
                .then().statusCode(401);
        TestClients.internal(TestKeys.ORG_A).contentType("application/x-www-form-urlencoded").body(BODY)
                .when().post("/internal/hook")
                .then().statusCode(200).body("reached", equalTo("yes"));
    }
}
