package dev.voiceplane.kit.auth;

import dev.voiceplane.kit.error.ApiError;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Authenticates every JAX-RS request. Public routes take {@code Authorization: Bearer <API key>} (keys from
 * {@code VOICE_API_KEYS}, see {@link ApiKeyRegistry}) and act
 * for the key's organisation; routes under {@code /internal/} take the service token instead and the
 * organisation from {@value #ORG_HEADER}; routes declared {@link VerifiedBy} a verifier (carrier webhooks) take
 * whatever that verifier checks, never an API key. Anything else is a 401 in the error shape.
 *
 * <p>Two checks: {@link #firstCheck} runs before anything else looks at the request (the kit's request pipeline,
 * before its limits, target, content type and body checks), so that a request without a valid key or token is a 401
 * whatever else is wrong with it (issue 24: an upload without a key answered 415); {@link #authenticate}, the
 * JAX-RS filter, runs on the matched route, verifies signed routes (which need their body) and names the
 * organisation.
 */
@Singleton
public class Authentication {

    private static final Logger LOG = Logger.getLogger(Authentication.class);
    public static final String ORG_HEADER = "X-Voice-Org-Id";
    public static final String INTERNAL_PREFIX = "/internal/";
    static final String INVALID_KEY = "Invalid Key. Hot tip, make sure you're using the private key not the public key.";
    static final String INVALID_TOKEN = "Invalid internal service token.";

    private final AccessKeys keys;
    private final CallerOrganisation caller;
    private final Instance<RouteVerifier> verifiers;
    /**
     * What each resource method takes, worked out from its annotations once: the reflection this needs cost about
     * as much as the rest of authentication on every request (issue 8's profile).
     */
    private final Map<Method, Route> routes = new ConcurrentHashMap<>();
    private final Map<Class<? extends RouteVerifier>, RouteVerifier> verifierBeans = new ConcurrentHashMap<>();
    private final BeanManager beans;
    /** Worked out on the first request (every resource bean exists by then), then read without a lock. */
    private volatile ResourceRoutes resourceRoutes;

    /** How a matched resource method authenticates: internal (service token), by a verifier, or by an API key. */
    private record Route(boolean internalResource, VerifiedBy verifiedBy) {
        static final Route UNMATCHED = new Route(false, null);

        static Route of(ResourceInfo resource) {
            return new Route(isInternal("", resource.getResourceClass()), Authentication.verifiedBy(resource));
        }
    }

    Authentication(AccessKeys keys, CallerOrganisation caller, @Any Instance<RouteVerifier> verifiers,
            BeanManager beans) {
        this.keys = keys;
        this.caller = caller;
        this.beans = beans;
        this.verifiers = verifiers;
    }

    @ServerRequestFilter
    public Optional<Response> authenticate(ContainerRequestContext request, ResourceInfo resource) {
        Optional<String> bearer = bearerToken(request.getHeaderString("Authorization"));
        Route route = route(resource);
        if (route.internalResource() || request.getUriInfo().getPath().startsWith(INTERNAL_PREFIX)) {
            return authenticateInternal(request, bearer);
        }
        if (route.verifiedBy() != null) {
            return verify(request, route.verifiedBy().value());
        }
        Optional<String> org = bearer.flatMap(keys::organisationOf);
        if (org.isEmpty()) {
            return Optional.of(ApiError.of(401, INVALID_KEY).toResponse());
        }
        caller.authenticate(org.get());
        return Optional.empty();
    }

    /**
     * The check that comes before any other (the path is the request's, normalised): an {@code /internal/} path
     * takes the service token; the path of a JAX-RS route takes a valid API key, unless the route is declared
     * {@link VerifiedBy} (its verifier needs the body, so it runs later); any other path is not this class's (Quarkus's
     * own endpoints, a service's own Vert.x routes that authenticate themselves, an unknown path: 404). It answers
     * nothing a later check would not: the JAX-RS filter still authenticates the route that matches.
     *
     * @return the 401 to answer, or empty to pass the request on
     */
    public Optional<ApiError> firstCheck(String path, String authorization) {
        if (path.equals("/internal") || path.startsWith(INTERNAL_PREFIX)) {
            return isServiceToken(bearerToken(authorization)) ? Optional.empty()
                    : Optional.of(ApiError.of(401, INVALID_TOKEN));
        }
        if (resourceRoutes().kind(path) != ResourceRoutes.Kind.KEY) {
            return Optional.empty();
        }
        return bearerToken(authorization).flatMap(keys::organisationOf).isPresent() ? Optional.empty()
                : Optional.of(ApiError.of(401, INVALID_KEY));
    }

    private ResourceRoutes resourceRoutes() {
        ResourceRoutes known = resourceRoutes;
        if (known == null) {
            List<Class<?>> resources = new ArrayList<>();
            for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
                if (bean.getBeanClass().isAnnotationPresent(Path.class)) {
                    resources.add(bean.getBeanClass());
                }
            }
            known = ResourceRoutes.of(resources);
            resourceRoutes = known;
        }
        return known;
    }

    private boolean isServiceToken(Optional<String> bearer) {
        return keys.isServiceToken(bearer);
    }

    private Optional<Response> authenticateInternal(ContainerRequestContext request, Optional<String> bearer) {
        if (!isServiceToken(bearer)) {
            return Optional.of(ApiError.of(401, INVALID_TOKEN).toResponse());
        }
        String org = request.getHeaderString(ORG_HEADER);
        if (org == null || org.isBlank()) {
            return Optional.of(ApiError.of(400, ORG_HEADER + " header is required on internal routes").toResponse());
        }
        caller.authenticate(org.strip());
        return Optional.empty();
    }

    private Route route(ResourceInfo resource) {
        Method method = resource == null ? null : resource.getResourceMethod();
        if (method == null) {
            return resource == null || resource.getResourceClass() == null ? Route.UNMATCHED : Route.of(resource);
        }
        return routes.computeIfAbsent(method, ignored -> Route.of(resource));
    }

    /** A route's verifier: the method's declaration, else its class's. */
    static VerifiedBy verifiedBy(ResourceInfo resource) {
        Method method = resource.getResourceMethod();
        VerifiedBy declared = method == null ? null : method.getAnnotation(VerifiedBy.class);
        if (declared != null) {
            return declared;
        }
        Class<?> type = resource.getResourceClass();
        return type == null ? null : type.getAnnotation(VerifiedBy.class);
    }

    private Optional<Response> verify(ContainerRequestContext request, Class<? extends RouteVerifier> type) {
        RouteVerifier.Verdict verdict;
        try {
            byte[] body = request.hasEntity() ? request.getEntityStream().readAllBytes() : new byte[0];
            request.setEntityStream(new ByteArrayInputStream(body));
            verdict = verifierBeans.computeIfAbsent(type, wanted -> verifiers.select(wanted).get()).verify(request, body);
        } catch (IOException e) {
            return Optional.of(ApiError.of(400, "request body could not be read").toResponse());
        } catch (RuntimeException e) {
            LOG.errorf("verifier %s failed; the request is refused: %s", type.getSimpleName(), e.toString());
            verdict = RouteVerifier.Verdict.refuse(403, "request could not be verified");
        }
        if (verdict == null || !verdict.accepted()) {
            int status = verdict == null ? 403 : verdict.status();
            String message = verdict == null ? "request could not be verified" : verdict.message();
            return Optional.of(ApiError.of(status, message).toResponse());
        }
        verdict.orgId().ifPresent(caller::authenticate);
        return Optional.empty();
    }

    /**
     * Internal by the request path or by the resource that matched it: the two agree today, and checking both
     * means a change in how paths are normalised can never hand an internal resource to an API key.
     */
    static boolean isInternal(String path, Class<?> resourceClass) {
        if (path.startsWith(INTERNAL_PREFIX)) {
            return true;
        }
        Path declared = resourceClass == null ? null : resourceClass.getAnnotation(Path.class);
        if (declared == null) {
            return false;
        }
        String classPath = declared.value().startsWith("/") ? declared.value() : "/" + declared.value();
        return classPath.equals("/internal") || classPath.startsWith(INTERNAL_PREFIX);
    }

    static Optional<String> bearerToken(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String value = header.strip();
        if (value.length() <= 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = value.substring(7).strip();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }
}
