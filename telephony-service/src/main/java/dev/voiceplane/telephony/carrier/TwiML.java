package dev.voiceplane.telephony.carrier;

import java.util.Map;

/**
 * The TwiML documents this service answers Twilio with. Every value that comes from outside (a URL, a message,
 * a parameter) is XML-escaped, so no input can add elements to the document.
 */
public final class TwiML {

    public static final String CONTENT_TYPE = "text/xml; charset=utf-8";
    private static final String PROLOGUE = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

    private TwiML() {
    }

    /** Connect the call's media to a bidirectional stream, passing {@code parameters} to the receiver. */
    public static String connectStream(String streamUrl, Map<String, String> parameters) {
        StringBuilder xml = new StringBuilder(PROLOGUE).append("<Response><Connect><Stream url=\"")
                .append(escape(streamUrl)).append("\">");
        parameters.forEach((name, value) -> xml.append("<Parameter name=\"").append(escape(name))
                .append("\" value=\"").append(escape(value)).append("\"/>"));
        return xml.append("</Stream></Connect></Response>").toString();
    }

    /**
     * Dial {@code number} with {@code callerId} (the platform's number): what a live call is redirected to when the
     * assistant transfers it. Nothing follows the {@code <Dial>}, so the call ends when the dialled party hangs up.
     */
    public static String dial(String callerId, String number) {
        return PROLOGUE + "<Response><Dial callerId=\"" + escape(callerId) + "\"><Number>" + escape(number)
                + "</Number></Dial></Response>";
    }

    /** Say a short message, then hang up. */
    public static String sayAndHangUp(String message) {
        return PROLOGUE + "<Response><Say>" + escape(message) + "</Say><Hangup/></Response>";
    }

    /** Nothing to do (answer to status callbacks). */
    public static String empty() {
        return PROLOGUE + "<Response/>";
    }

    /** XML text and attribute escaping; characters XML 1.0 cannot carry at all are dropped. */
    public static String escape(String value) {
        if (value == null) {
            return "";
        }
        StringBuilder escaped = new StringBuilder(value.length() + 16);
        value.codePoints().forEach(c -> {
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&apos;");
                default -> {
                    boolean allowed = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
                            || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
                    if (allowed) {
                        escaped.appendCodePoint(c);
                    }
                }
            }
        });
        return escaped.toString();
    }
}
