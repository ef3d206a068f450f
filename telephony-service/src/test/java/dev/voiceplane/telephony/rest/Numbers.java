package dev.voiceplane.telephony.rest;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.restassured.specification.RequestSpecification;

/** Imports numbers the way clients do, with the carrier stubbed to accept them. */
public final class Numbers {

    private Numbers() {
    }

    /** A Twilio number imported for the caller: its id; the account and token are the test's own. */
    public record Imported(String id, String number, String accountSid, String authToken, String numberSid) {
    }

    public static Imported importTwilio(WireMockServer wm, RequestSpecification caller, String extraFields) {
        String number = Stubs.newNumber();
        String account = Stubs.newAccountSid();
        String token = "token-" + java.util.UUID.randomUUID();
        String sid = Stubs.twilioOwns(wm, account, token, number, null);
        String id = caller.body("{\"twilioPhoneNumber\":\"" + number + "\",\"twilioAccountSid\":\"" + account
                + "\",\"twilioAuthToken\":\"" + token + "\"" + (extraFields.isEmpty() ? "" : "," + extraFields) + "}")
                .when().post("/phone-number/import/twilio")
                .then().statusCode(201).extract().path("id");
        return new Imported(id, number, account, token, sid);
    }

    public static Imported importTwilio(WireMockServer wm, RequestSpecification caller) {
        return importTwilio(wm, caller, "");
    }
}
