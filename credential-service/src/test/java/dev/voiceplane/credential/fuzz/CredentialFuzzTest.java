package dev.voiceplane.credential.fuzz;

import dev.voiceplane.kit.testing.fuzz.Endpoint;
import dev.voiceplane.kit.testing.fuzz.FuzzSuite;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Every public endpoint of credential-service under the kit's fuzz suite (service-kit/README.md). */
@QuarkusTest
class CredentialFuzzTest {

    private static final String[] BODIES = {
        "{\"provider\":\"openai\",\"apiKey\":\"sk-fuzz-secret-01\",\"name\":\"fuzz\"}",
        "{\"provider\":\"twilio\",\"accountSid\":\"AC123\",\"authToken\":\"token-fuzz-secret-02\"}",
        "{\"provider\":\"vonage\",\"apiKey\":\"key-fuzz-secret-03\",\"apiSecret\":\"secret-fuzz-secret-04\"}",
        "{\"provider\":\"vonage\",\"apiKey\":\"key-fuzz-secret-03\",\"apiSecret\":\"secret-fuzz-secret-04\",\"signatureSecret\":\"sig-fuzz-secret-05\"}",
        "{\"provider\":\"11labs\",\"apiKey\":\"el-fuzz-secret-06\"}",
    };

    @Test
    void noInputAnswers5xxOrLeavesTheErrorShapeOrChangesWhatIsStored() {
        FuzzSuite.of("credential-service")
                .endpoint(Endpoint.post("/credential", BODIES))
                .endpoint(Endpoint.put("/credential/{id}", BODIES))
                .endpoint(Endpoint.list("/credential"))
                .endpoint(Endpoint.get("/credential/{id}"))
                .endpoint(Endpoint.delete("/credential/{id}"))
                // Internal routes are not public: an API key must be refused there, in the error shape.
                .endpoint(Endpoint.get("/internal/credential/{id}"))
                .endpoint(Endpoint.get("/internal/credential/{id}/secret"))
                .stored("/credential", BODIES[0])
                .stored("/credential", BODIES[1])
                .cases(2000)
                .run();
    }
}
