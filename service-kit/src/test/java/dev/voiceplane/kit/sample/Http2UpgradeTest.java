package dev.voiceplane.kit.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * java.net.http's default client asks for a cleartext HTTP/2 upgrade on every request. With a body that upgrade must
 * not bypass the kit's body handling: the request is served as HTTP/1.1 and answered in the error shape.
 */
@QuarkusTest
class Http2UpgradeTest {

    @TestHTTPResource("/note")
    URI notes;

    @Test
    void aRequestOfferingACleartextHttp2UpgradeIsServedWithItsBody() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(notes)
                .header("Authorization", TestKeys.bearer(TestKeys.KEY_A))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"unknownField\":1}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("\"statusCode\":400"), answer.body());
        assertTrue(answer.body().contains("property unknownField should not exist"), answer.body());
    }
}
