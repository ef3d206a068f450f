package dev.voiceplane.kit.testing.fuzz;

import java.util.List;

/**
 * One public endpoint as the fuzz suite sees it: a method, a path that may hold one {@code {id}}, and for endpoints
 * with a body, a few valid bodies that the suite mutates (the more of the schema they cover, the deeper the
 * mutations reach). A list endpoint gets its query parameters fuzzed. An upload endpoint takes
 * {@code multipart/form-data} with one part named {@code file}: the suite sends it well-formed and hostile forms.
 */
public record Endpoint(String method, String path, List<String> validBodies, boolean list, boolean upload) {

    public Endpoint {
        validBodies = List.copyOf(validBodies);
    }

    public static Endpoint get(String path) {
        return new Endpoint("GET", path, List.of(), false, false);
    }

    /** {@code GET} of a collection: {@code limit}, {@code createdAtGt}, ... and unknown parameters are fuzzed. */
    public static Endpoint list(String path) {
        return new Endpoint("GET", path, List.of(), true, false);
    }

    public static Endpoint delete(String path) {
        return new Endpoint("DELETE", path, List.of(), false, false);
    }

    public static Endpoint post(String path, String... validBodies) {
        return new Endpoint("POST", path, List.of(validBodies), false, false);
    }

    public static Endpoint put(String path, String... validBodies) {
        return new Endpoint("PUT", path, List.of(validBodies), false, false);
    }

    public static Endpoint patch(String path, String... validBodies) {
        return new Endpoint("PATCH", path, List.of(validBodies), false, false);
    }

    /** {@code POST} of a {@code multipart/form-data} upload with one part named {@code file}. */
    public static Endpoint upload(String path) {
        return new Endpoint("POST", path, List.of(), false, true);
    }

    boolean hasId() {
        return path.contains("{id}");
    }

    boolean hasBody() {
        return !validBodies.isEmpty() || upload;
    }

    /** The collection an id of this endpoint belongs to: the path up to {@code /{id}}. */
    String collection() {
        int at = path.indexOf("/{id}");
        return at < 0 ? path : path.substring(0, at);
    }

    @Override
    public String toString() {
        return method + " " + path;
    }
}
