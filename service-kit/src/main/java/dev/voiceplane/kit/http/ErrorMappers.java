package dev.voiceplane.kit.http;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.voiceplane.kit.error.ApiError;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.error.RequestId;
import dev.voiceplane.kit.error.ViolationMessages;
import dev.voiceplane.kit.json.JsonPaths;
import dev.voiceplane.kit.persistence.NotFound;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.CharConversionException;
import java.sql.SQLException;
import java.util.List;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Maps every failure to {@link ApiError}, once, for every service. JAX-RS picks the mapper of the most specific
 * exception type, so the order here is only for reading: the API's own failures, then the request body's (Jackson,
 * encoding, timeout), then JAX-RS's, then everything else.
 */
public class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class);

    /** Seconds a client waits before retrying a 503: about what a database restart or a failover takes. */
    static final String RETRY_AFTER_SECONDS = "5";
    static final String DATABASE_UNAVAILABLE = "the database is unavailable; try again later (a write answered"
            + " with this may or may not have been stored: read before repeating one that has no Idempotency-Key)";

    private final BodyLimit bodyLimit;

    public ErrorMappers(BodyLimit bodyLimit) {
        this.bodyLimit = bodyLimit;
    }

    @ServerExceptionMapper
    public Response api(ApiException e) {
        return e.status() == 503 ? unavailable(e.toError()) : e.toError().toResponse();
    }

    /** A repository's domain "not found": the API's 404, written here only. */
    @ServerExceptionMapper
    public Response notFound(NotFound e) {
        return ApiException.notFound(e.resource()).toError().toResponse();
    }

    @ServerExceptionMapper
    public Response violations(ConstraintViolationException e) {
        if (ViolationMessages.concernsResponse(e.getConstraintViolations())) {
            return internal(e);
        }
        return ApiError.of(400, ViolationMessages.of(e.getConstraintViolations())).toResponse();
    }

    @ServerExceptionMapper
    public Response malformedJson(JsonParseException e) {
        return ApiError.of(400, "request body is not valid JSON: " + e.getOriginalMessage()).toResponse();
    }

    @ServerExceptionMapper
    public Response wrongType(MismatchedInputException e) {
        return ApiError.of(400, List.of(JsonPaths.describe(e))).toResponse();
    }

    @ServerExceptionMapper
    public Response rejectedValue(ValueInstantiationException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        if (cause instanceof ApiException api) {
            return api.toError().toResponse();
        }
        return ApiError.of(400, List.of(JsonPaths.prefix(e.getPath(), String.valueOf(cause.getMessage()))))
                .toResponse();
    }

    @ServerExceptionMapper
    public Response otherJson(JsonProcessingException e) {
        return ApiError.of(400, "request body could not be read: " + e.getOriginalMessage()).toResponse();
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, Request request, UriInfo uri, HttpHeaders headers) {
        int status = e.getResponse().getStatus();
        // Quarkus REST wraps a body that Jackson could not read; answer for the underlying problem.
        if (e.getCause() instanceof JsonParseException parse) {
            return malformedJson(parse);
        }
        if (e.getCause() instanceof MismatchedInputException mismatch) {
            return wrongType(mismatch);
        }
        if (e.getCause() instanceof JsonProcessingException json) {
            return otherJson(json);
        }
        if (status >= 500) {
            return internal(e);
        }
        if (status == 413) {
            return bodyLimit.tooLarge().toError().toResponse();
        }
        String message = switch (status) {
            case 404 -> "Cannot " + request.getMethod() + " " + uri.getPath();
            case 405 -> "Method " + request.getMethod() + " is not allowed on " + uri.getPath();
            // The header as sent: it may be a media type that JAX-RS cannot even parse.
            case 415 -> "Content-Type " + headers.getHeaderString(HttpHeaders.CONTENT_TYPE) + " is not supported here";
            case 406 -> "this endpoint only produces application/json";
            default -> e.getMessage() != null ? e.getMessage() : ApiError.reasonPhrase(status);
        };
        Response.ResponseBuilder response = Response.fromResponse(ApiError.of(status, message).toResponse());
        String allow = e.getResponse().getHeaderString(HttpHeaders.ALLOW);
        if (allow != null) {
            response.header(HttpHeaders.ALLOW, allow);
        }
        return response.build();
    }

    /** A body whose bytes are not text in the declared encoding. */
    @ServerExceptionMapper
    public Response undecodable(CharConversionException e) {
        return ApiError.of(400, "request body is not valid UTF-8 JSON").toResponse();
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        SQLException unreachable = DatabaseFailures.unreachable(e);
        if (unreachable != null) {
            // The database is down, restarting or out of connections: the request is fine, asking again later
            // will work. Whether a write in flight was stored cannot be known, so the message does not promise.
            LOG.warnf("database unavailable (request id %s): %s %s", RequestId.current(),
                    unreachable.getSQLState(), unreachable.getMessage());
            return unavailable(ApiError.of(503, DATABASE_UNAVAILABLE));
        }
        SQLException rejected = dataException(e);
        if (rejected != null) {
            // SQLSTATE class 22 ("data exception"): PostgreSQL refused a value the client sent. The screens and
            // validation should have caught it first; this keeps anything they miss from becoming a 500.
            LOG.warnf("database refused a client value (request id %s): %s %s", RequestId.current(),
                    rejected.getSQLState(), rejected.getMessage());
            return ApiError.of(400, List.of("a value in the request cannot be stored or compared")).toResponse();
        }
        return internal(e);
    }

    /**
     * Every 503 carries {@code Retry-After}: it is the answer to retry, and clients (and the hosted platform's SDKs)
     * wait that long before asking again.
     */
    private static Response unavailable(ApiError error) {
        return Response.fromResponse(error.toResponse()).header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS).build();
    }

    private static SQLException dataException(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("22")) {
                return sql;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    private static Response internal(Throwable e) {
        return internalError(e).toResponse();
    }

    /** A 500 that tells the client nothing but the request id, which the log line of the failure carries. */
    static ApiError internalError(Throwable e) {
        String requestId = RequestId.current();
        LOG.errorf(e, "unhandled failure (request id %s)", requestId);
        return ApiError.of(500, "Internal server error; quote request id " + requestId + " when reporting it");
    }
}
