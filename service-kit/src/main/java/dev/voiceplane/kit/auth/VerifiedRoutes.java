package dev.voiceplane.kit.auth;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The request paths of the routes declared {@link VerifiedBy}, worked out once from the resource classes' JAX-RS
 * annotations, for the check that runs before routing ({@link Authentication#firstCheck}): a request to one of them
 * carries a signature over its body rather than a key, so it is passed on to be verified once its body is in. A
 * template variable matches any one segment; a path that matches here but no route still meets JAX-RS's own
 * authentication, so matching generously never opens anything.
 */
final class VerifiedRoutes {

    private final List<Pattern> paths;

    private VerifiedRoutes(List<Pattern> paths) {
        this.paths = List.copyOf(paths);
    }

    static VerifiedRoutes of(Iterable<Class<?>> resourceClasses) {
        List<Pattern> paths = new ArrayList<>();
        for (Class<?> type : resourceClasses) {
            Path classPath = type.getAnnotation(Path.class);
            if (classPath == null) {
                continue;
            }
            boolean classVerified = type.isAnnotationPresent(VerifiedBy.class);
            for (Method method : type.getMethods()) {
                if (!isResourceMethod(method) || !(classVerified || method.isAnnotationPresent(VerifiedBy.class))) {
                    continue;
                }
                Path methodPath = method.getAnnotation(Path.class);
                paths.add(pattern(classPath.value() + "/" + (methodPath == null ? "" : methodPath.value())));
            }
        }
        return new VerifiedRoutes(paths);
    }

    boolean matches(String path) {
        for (Pattern verified : paths) {
            if (verified.matcher(path).matches()) {
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
