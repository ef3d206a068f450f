package dev.voiceplane.kit.auth;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The request paths of the JAX-RS routes, worked out once from the resource classes' annotations, for the check
 * that runs before routing ({@link Authentication#firstCheck}): which paths are JAX-RS routes at all (others, such as
 * Quarkus's {@code /q/} endpoints or a service's own Vert.x routes, authenticate themselves), and which of them are
 * declared {@link VerifiedBy} (they carry a signature over their body rather than a key). A template variable
 * matches any one segment, whatever the method: matching generously only ever asks for a key, or passes a request on
 * to JAX-RS's own authentication.
 */
final class ResourceRoutes {

    /** How a path authenticates before routing. */
    enum Kind {
        /** Not a JAX-RS route: passed on. */
        NONE,
        /** A route declared {@link VerifiedBy}: passed on to its verifier. */
        VERIFIED,
        /** Any other route: an API key. */
        KEY
    }

    private final List<Pattern> verified;
    private final List<Pattern> keyed;

    private ResourceRoutes(List<Pattern> verified, List<Pattern> keyed) {
        this.verified = List.copyOf(verified);
        this.keyed = List.copyOf(keyed);
    }

    static ResourceRoutes of(Iterable<Class<?>> resourceClasses) {
        List<Pattern> verified = new ArrayList<>();
        List<Pattern> keyed = new ArrayList<>();
        for (Class<?> type : resourceClasses) {
            Path classPath = type.getAnnotation(Path.class);
            if (classPath == null || type.isInterface()) {
                continue;
            }
            boolean classVerified = type.isAnnotationPresent(VerifiedBy.class);
            for (Method method : type.getMethods()) {
                if (!isResourceMethod(method)) {
                    continue;
                }
                Path methodPath = method.getAnnotation(Path.class);
                Pattern path = pattern(classPath.value() + "/" + (methodPath == null ? "" : methodPath.value()));
                (classVerified || method.isAnnotationPresent(VerifiedBy.class) ? verified : keyed).add(path);
            }
        }
        return new ResourceRoutes(verified, keyed);
    }

    /** A verified route wins over a key route of the same path: JAX-RS authenticates what actually matches. */
    Kind kind(String path) {
        if (matches(verified, path)) {
            return Kind.VERIFIED;
        }
        return matches(keyed, path) ? Kind.KEY : Kind.NONE;
    }

    private static boolean matches(List<Pattern> patterns, String path) {
        for (Pattern pattern : patterns) {
            if (pattern.matcher(path).matches()) {
                return true;
            }
        }
        return false;
    }

    private static boolean isResourceMethod(Method method) {
        if (method.isAnnotationPresent(Path.class)) {
            return true;
        }
        for (Annotation annotation : method.getAnnotations()) {
            if (annotation.annotationType().isAnnotationPresent(HttpMethod.class)) {
                return true;
            }
        }
        return false;
    }

    /** A JAX-RS path template as a pattern: {@code {name}} is one segment, {@code {name: regex}} its regex. */
    static Pattern pattern(String template) {
        String path = ("/" + template).replaceAll("/{2,}", "/");
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        StringBuilder regex = new StringBuilder();
        int i = 0;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c != '{') {
                int next = path.indexOf('{', i);
                int end = next < 0 ? path.length() : next;
                regex.append(Pattern.quote(path.substring(i, end)));
                i = end;
                continue;
            }
            int depth = 0;
            int end = i;
            for (; end < path.length(); end++) {
                if (path.charAt(end) == '{') {
                    depth++;
                } else if (path.charAt(end) == '}' && --depth == 0) {
                    break;
                }
            }
            String variable = path.substring(i + 1, Math.min(end, path.length()));
            int colon = variable.indexOf(':');
            regex.append(colon < 0 ? "[^/]+" : "(?:" + variable.substring(colon + 1).strip() + ")");
            i = end + 1;
        }
        return Pattern.compile(regex + "/?");
    }
}
