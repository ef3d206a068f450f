package dev.voiceplane.kit.error;

import org.jboss.logging.MDC;

/**
 * The id of the request being served on this thread, as the logging context holds it (the HTTP layer puts it
 * there first thing, see {@code http.RequestIds}). A 500 quotes it so that a report can be matched to the log.
 */
public final class RequestId {

    /** Logging-context key; the console format prints it on every line. */
    public static final String MDC_KEY = "requestId";

    private RequestId() {
    }

    /** The id of the request being served on this thread, or {@code "none"} outside a request. */
    public static String current() {
        Object id = MDC.get(MDC_KEY);
        return id != null ? id.toString() : "none";
    }
}
