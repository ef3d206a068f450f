package dev.voiceplane.kit.ops;

import dev.voiceplane.kit.auth.CallerOrganisation;
import jakarta.annotation.Priority;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Priorities;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Puts the organisation a request acts for into the logging context ({@value #MDC_KEY}), next to
 * {@code requestId}, so every log line of an authenticated request names it (plain and JSON logs alike).
 * Runs after authentication; a request that failed authentication never reaches it.
 */
@Singleton
public class OrganisationLogContext {

    public static final String MDC_KEY = "orgId";

    private final CallerOrganisation caller;

    OrganisationLogContext(CallerOrganisation caller) {
        this.caller = caller;
    }

    @ServerRequestFilter(priority = Priorities.USER + 100)
    public void tag() {
        try {
            MDC.put(MDC_KEY, caller.id());
        } catch (IllegalStateException unauthenticated) {
            // A route verified by something other than an organisation's credentials: nothing to name.
        }
    }
}
