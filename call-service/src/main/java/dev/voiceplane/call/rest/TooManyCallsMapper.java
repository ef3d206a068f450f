package dev.voiceplane.call.rest;

import dev.voiceplane.call.service.LiveCallLimit;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** The live-call limit's 429, in the error shape, with {@code Retry-After} (the kit's mapper sets no headers). */
public class TooManyCallsMapper {

    @ServerExceptionMapper
    public Response tooMany(LiveCallLimit.TooManyCalls e) {
        return Response.fromResponse(e.toError().toResponse())
                .header(HttpHeaders.RETRY_AFTER, e.retryAfterSeconds())
                .build();
    }
}
