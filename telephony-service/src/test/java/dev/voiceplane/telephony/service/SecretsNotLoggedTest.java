package dev.voiceplane.telephony.service;

import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.telephony.carrier.TwilioSignature;
import dev.voiceplane.telephony.rest.Numbers;
import dev.voiceplane.telephony.rest.Stubs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** Refused imports and forged webhooks are logged, and no log line carries a token or a signature. */
@QuarkusTest
class SecretsNotLoggedTest {

    @InjectWireMock
    WireMockServer wm;

    @Inject
    TwilioWebhooks webhooks;

    @Test
    void noTokenOrSignatureIsEverLogged() {
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record.getLoggerName() + " " + record.getMessage() + " "
                        + java.util.Arrays.toString(record.getParameters())
                        + " " + (record.getThrown() == null ? "" : String.valueOf(record.getThrown())));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        capture.setLevel(Level.ALL);
        Logger root = Logger.getLogger("");
        Logger ours = Logger.getLogger("dev.voiceplane");
        Level before = ours.getLevel();
        ours.setLevel(Level.ALL);
        root.addHandler(capture);
        String wrongToken = "wrong-token-" + java.util.UUID.randomUUID();
        Numbers.Imported number;
        String forged;
        try {
            number = Numbers.importTwilio(wm, orgA());
            String account = Stubs.newAccountSid();
            Stubs.twilioOwns(wm, account, "right", Stubs.newNumber(), null);
            orgA().body("{\"twilioPhoneNumber\":\"" + Stubs.newNumber() + "\",\"twilioAccountSid\":\"" + account
                    + "\",\"twilioAuthToken\":\"" + wrongToken + "\"}").when().post("/phone-number/import/twilio")
                    .then().statusCode(400);
            Map<String, List<String>> params = TwilioWebhooksTest.inboundCall(number, TwilioWebhooksTest.newCallSid());
            forged = TwilioSignature.compute(wrongToken, Stubs.PUBLIC + "/twilio/inbound_call", params);
            assertEquals(403, webhooks.inboundCall(null, TwilioWebhooksTest.form(params), forged).status());
        } finally {
            root.removeHandler(capture);
            ours.setLevel(before);
        }
        assertTrue(logged.stream().anyMatch(line -> line.contains("X-Twilio-Signature does not match")),
                "the refusal is logged");
        for (String line : logged) {
            assertFalse(line.contains(number.authToken()), "logged a token: " + line);
            assertFalse(line.contains(wrongToken), "logged a token: " + line);
            assertFalse(line.contains(forged), "logged a signature: " + line);
        }
    }
}
