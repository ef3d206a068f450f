package dev.voiceplane.kit.ops;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.HashMap;
import java.util.Map;
import org.jboss.logging.MDC;

/** Test-only: answers with the logging context a log line written while serving this request would carry. */
@Path("/log-context")
public class LogContextResource {

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> context() {
        Map<String, String> context = new HashMap<>();
        MDC.getMap().forEach((key, value) -> context.put(key, String.valueOf(value)));
        return context;
    }
}
