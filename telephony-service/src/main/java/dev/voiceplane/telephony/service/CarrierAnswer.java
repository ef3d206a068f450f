package dev.voiceplane.telephony.service;

/** What a carrier webhook is answered with: a status, a content type and the document (TwiML, NCCO, error). */
public record CarrierAnswer(int status, String contentType, String body) {

    public static final String JSON = "application/json";

    static CarrierAnswer error(int status, String message) {
        String escaped = message.replace("\\", "\\\\").replace("\"", "\\\"");
        return new CarrierAnswer(status, JSON, "{\"message\":\"" + escaped + "\",\"error\":\""
                + dev.voiceplane.kit.error.ApiError.of(status, message).error() + "\",\"statusCode\":" + status + "}");
    }
}
