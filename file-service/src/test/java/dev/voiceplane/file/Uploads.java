package dev.voiceplane.file;

import static dev.voiceplane.kit.testing.TestClients.as;

import dev.voiceplane.kit.testing.TestKeys;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

/** Multipart uploads as the test organisations make them. */
public final class Uploads {

    private Uploads() {
    }

    /** A request with org A's key and no JSON content type (RestAssured sets the multipart one). */
    public static RequestSpecification orgA() {
        return as(TestKeys.KEY_A).contentType("multipart/form-data");
    }

    public static RequestSpecification orgB() {
        return as(TestKeys.KEY_B).contentType("multipart/form-data");
    }

    /** Uploads {@code bytes} as org A's file named {@code name}: the answer, not yet checked. */
    public static ValidatableResponse upload(String name, byte[] bytes) {
        return orgA().multiPart("file", name, bytes).when().post("/file").then();
    }

    /** Uploads and returns the new file's id (201 asserted). */
    public static String uploaded(String name, byte[] bytes) {
        return upload(name, bytes).statusCode(201).extract().path("id");
    }
}
