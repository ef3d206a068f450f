package dev.voiceplane.kit.testing.fuzz;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.testing.TestKeys;
import io.restassured.RestAssured;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * The fuzz suite's engine: throws malformed, mistyped, oversized, deeply nested and mutated bodies, hostile
 * multipart uploads (a part nested in the file part, odd file-name encodings, raw control characters), bad ids, bad
 * query parameters and bad headers at every endpoint a service lists, and asserts, for each answer, that it is
 * never a 5xx and every 4xx is in the error shape; that a body nested deeper than {@code JsonLimits.MAX_DEPTH} is
 * refused on every JSON body endpoint; that whatever is accepted reads back (by id, in its list, and an upload's
 * bytes exactly); that every endpoint answers 401 in the error shape to hostile requests without a valid key; for
 * the records stored before the run, that they read back identical afterwards (organisation B's are never the
 * fuzzed caller's; organisation A's only ever receive requests that must fail); and that no accepted answer, nor any
 * stored record read back, holds a secret a valid body wrote ({@code apiKey}, {@code authToken},
 * {@code serverUrlSecret}, {@code secret}, …: write-only; values of 8 characters or more). A service joins with one small
 * {@code @QuarkusTest} (see service-kit/README.md):
 *
 * <pre>{@code
 * FuzzSuite.of("credential-service")
 *         .endpoint(Endpoint.post("/credential", "{\"provider\":\"openai\",\"apiKey\":\"sk-1\"}"))
 *         .endpoint(Endpoint.get("/credential/{id}"))
 *         .stored("/credential", "{\"provider\":\"openai\",\"apiKey\":\"sk-1\"}")
 *         .run();
 * }</pre>
 *
 * Seeded and bounded: {@code -Dvoice.fuzz.seed=<n>} (default fixed, {@code random} for a new one each run),
 * {@code -Dvoice.fuzz.cases=<n>}, and {@code -Dvoice.fuzz.case=<k>} to replay only case k of a seed. A failure
 * prints the seed and, per failing case, its number, request and answer.
 */
public final class FuzzSuite {

    /** Default seed: CI runs the same cases every time; pass another (or "random") to explore. */
    public static final long DEFAULT_SEED = 20261122L;
    private static final int DEFAULT_CASES = 1500;
    private static final int FAILURES_SHOWN = 8;
    private static final long MAX_BODY = 1024 * 1024;

    private final String service;
    private final List<Endpoint> endpoints = new ArrayList<>();
    private final List<Stored> stored = new ArrayList<>();
    private final List<String> creations = new ArrayList<>();
    private final Map<String, String> readBack = new LinkedHashMap<>();
    private int cases = DEFAULT_CASES;
    /** Fields whose values are write-only secrets; a value written in one of them must never be answered. */
    private static final java.util.Set<String> SECRET_FIELDS = java.util.Set.of("apiKey", "apiSecret", "authToken",
            "serverUrlSecret", "secret", "signatureSecret", "privateKey", "password");
    private final java.util.Set<String> secrets = new java.util.LinkedHashSet<>();
    /** Hostile requests without a valid key sent to each endpoint. */
    private static final int UNAUTHENTICATED_PER_ENDPOINT = 12;

    /** A record created before the run, for one organisation; its text must read back unchanged afterwards. */
    private record Stored(String collection, String id, String key, String text) {
    }

    private record Case(int number, Endpoint endpoint, String method, String path, Map<String, String> headers,
            byte[] body, boolean mustFail, byte[] file) {
        String describe() {
            String shown = new String(body, 0, Math.min(body.length, 300), UTF_8);
            return "case " + number + ": " + method + " " + (path.length() > 300 ? path.substring(0, 300) + "…" : path)
                    + " headers " + abbreviated(headers) + " body(" + body.length + " bytes) " + shown;
        }
    }

    private FuzzSuite(String service) {
        this.service = service;
    }

    public static FuzzSuite of(String service) {
        return new FuzzSuite(service);
    }

    public FuzzSuite endpoint(Endpoint endpoint) {
        endpoints.add(endpoint);
        return this;
    }

    /**
     * Before the run, creates a record with {@code POST collection} and this body, once for organisation A and once
     * for organisation B; the suite aims requests at their ids and checks afterwards that they read back unchanged.
     */
    public FuzzSuite stored(String collection, String body) {
        creations.add(collection + "\n" + body);
        return this;
    }

    /**
     * Where what {@code POST endpointPath} accepts reads back: {@code GET collection/{id}} and the list
     * {@code GET collection} must answer 200 (and an upload's {@code GET collection/{id}/content} its bytes). Without
     * it, a {@code POST} to a path that is also a listed collection reads back there, and a {@code PATCH} or
     * {@code PUT} of {@code collection/{id}} in its collection.
     */
    public FuzzSuite readsBack(String endpointPath, String collection) {
        readBack.put(endpointPath, collection);
        return this;
    }

    /** How many cases the run sends (default {@value #DEFAULT_CASES}; {@code -Dvoice.fuzz.cases} overrides). */
    public FuzzSuite cases(int count) {
        this.cases = count;
        return this;
    }

    public void run() {
        long seed = seed();
        int total = Integer.getInteger("voice.fuzz.cases", cases);
        Integer only = Integer.getInteger("voice.fuzz.case");
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        String base = RestAssured.baseURI + ":" + RestAssured.port;

        for (Endpoint endpoint : endpoints) {
            endpoint.validBodies().forEach(this::collectSecrets);
        }
        creations.forEach(creation -> collectSecrets(creation.substring(creation.indexOf('\n') + 1)));
        createStored(client, base);
        Map<Stored, String> before = new LinkedHashMap<>();
        for (Stored record : stored) {
            before.put(record, record.text());
        }

        Random random = new Random(seed);
        List<String> failures = new ArrayList<>();
        int failed = 0;
        Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        for (int number = 0; number < total; number++) {
            Case hostile = next(random, number);
            if (only != null && only != number) {
                continue;
            }
            String problem;
            try {
                HttpResponse<String> answer = send(client, base, hostile);
                statuses.merge(answer.statusCode(), 1, Integer::sum);
                problem = judge(hostile, answer);
                if (problem == null && answer.statusCode() / 100 == 2) {
                    problem = leakedSecret(answer.body());
                }
                if (problem == null && answer.statusCode() / 100 == 2) {
                    problem = readsBack(client, base, hostile, answer);
                }
            } catch (IllegalArgumentException e) {
                // A header value java.net.http will not send (trailing space, control character): the kit's raw
                // socket tests (HostileRequestTest) cover those.
                statuses.merge(-1, 1, Integer::sum);
                problem = null;
            } catch (IOException e) {
                // A body over the limit is refused before it is read, and the connection closed under the sender.
                problem = hostile.body().length > MAX_BODY ? null : "no answer: " + e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
            if (problem != null) {
                failed++;
                if (failures.size() < FAILURES_SHOWN) {
                    failures.add(hostile.describe() + "\n    -> " + problem);
                }
            }
        }

        for (Endpoint endpoint : endpoints) {
            for (String valid : endpoint.upload() ? List.<String>of() : endpoint.validBodies()) {
                String problem = tooDeepIsRefused(client, base, endpoint, valid);
                if (problem != null) {
                    failed++;
                    if (failures.size() < FAILURES_SHOWN) {
                        failures.add(problem);
                    }
                }
            }
            for (int i = 0; i < UNAUTHENTICATED_PER_ENDPOINT; i++) {
                Case hostile = unauthenticated(random, endpoint, total + i);
                String problem = unauthorized(client, base, hostile, statuses);
                if (problem != null) {
                    failed++;
                    if (failures.size() < FAILURES_SHOWN) {
                        failures.add("without a valid key, " + hostile.describe() + "\n    -> " + problem);
                    }
                }
            }
        }

        for (Stored record : stored) {
            String after = read(client, base, record);
            String leaked = leakedSecret(after);
            if (leaked != null) {
                failed++;
                failures.add("stored " + record.collection() + "/" + record.id() + ": " + leaked);
            }
            if (!before.get(record).equals(after)) {
                failed++;
                failures.add("stored " + record.collection() + "/" + record.id() + " changed:\n    before " + before.get(record)
                        + "\n    after  " + after);
            }
        }
        System.out.printf("[fuzz] %s: %d cases, seed %d, answers by status (-1: not sendable) %s%n", service, total,
                seed, statuses);
        if (failed > 0) {
            throw new AssertionError(service + ": " + failed + " fuzz cases failed (seed " + seed + "; replay one with "
                    + "-Dvoice.fuzz.seed=" + seed + " -Dvoice.fuzz.case=<number>)\n  " + String.join("\n  ", failures));
        }
    }

    static long seed() {
        String given = System.getProperty("voice.fuzz.seed");
        if (given == null || given.isBlank()) {
            return DEFAULT_SEED;
        }
        return given.equals("random") ? new Random().nextLong() : Long.parseLong(given);
    }

    // ---- the cases -----------------------------------------------------------------------------------------------

    private Case next(Random random, int number) {
        Endpoint endpoint = HostileInput.pick(random, endpoints);
        boolean mustFail = false;
        String path = endpoint.path();
        if (endpoint.hasId()) {
            Target target = target(random, endpoint);
            mustFail = target.ownVictim() && !endpoint.method().equals("GET");
            path = path.replace("{id}", target.segment());
        }
        if (endpoint.list() || random.nextInt(20) == 0) {
            String query = HostileInput.query(random, endpoint.list());
            if (!query.isEmpty()) {
                path = path + "?" + query;
            }
        }
        Map<String, String> headers = new LinkedHashMap<>();
        switch (random.nextInt(40)) {
            case 0 -> { }
            case 1 -> headers.put("Authorization", "Bearer wrong-key");
            case 2 -> headers.put("Authorization", HostileInput.pick(random,
                    List.of("Bearer ", "Basic eDp5", "bearer " + TestKeys.KEY_A + "x", "Bearer " + "k".repeat(3000))));
            default -> headers.put("Authorization", TestKeys.bearer(TestKeys.KEY_A));
        }
        headers.putAll(HostileInput.extraHeaders(random));
        byte[] body = new byte[0];
        byte[] file = null;
        if (endpoint.upload()) {
            HostileInput.Multipart form = HostileInput.multipart(random);
            headers.put("Content-Type", random.nextInt(10) == 0 ? HostileInput.contentType(random) : form.contentType());
            body = form.body();
            file = form.file();
        } else if (endpoint.hasBody()) {
            headers.put("Content-Type", HostileInput.contentType(random));
            String valid = HostileInput.pick(random, endpoint.validBodies());
            int kind = random.nextInt(20);
            if (mustFail || kind < 9) {
                body = HostileInput.malformed(random, valid);
                mustFail = true;
            } else if (kind < 17) {
                body = HostileInput.mutated(random, valid);
            } else {
                body = valid.getBytes(UTF_8);
            }
        } else if (random.nextInt(15) == 0) {
            headers.put("Content-Type", HostileInput.contentType(random));
            body = HostileInput.malformed(random, "{}");
        }
        return new Case(number, endpoint, endpoint.method(), path, headers, body, mustFail, file);
    }

    /**
     * A request without a valid key (none, another scheme, a wrong or malformed one, the key of the wrong kind) that
     * is hostile in other ways too: a body, content type, path or query each route would refuse for itself.
     */
    private Case unauthenticated(Random random, Endpoint endpoint, int number) {
        Case hostile = next(random, number);
        while (hostile.endpoint() != endpoint) {
            hostile = next(random, number);
        }
        Map<String, String> headers = new LinkedHashMap<>(hostile.headers());
        headers.remove("Authorization");
        boolean internal = endpoint.path().startsWith("/internal/");
        String key = HostileInput.pick(random, java.util.Arrays.asList(null, "Bearer wrong-key", "Basic eDp5",
                TestKeys.KEY_A, "Bearer " + TestKeys.KEY_A + "x", internal ? TestKeys.bearer(TestKeys.KEY_A)
                        : TestKeys.bearer(TestKeys.INTERNAL_TOKEN)));
        if (key != null) {
            headers.put("Authorization", key);
        }
        byte[] body = hostile.body();
        switch (random.nextInt(5)) {
            case 0 -> headers.put("Content-Type", HostileInput.pick(random, List.of("garbage", "text/plain",
                    "multipart/form-data; boundary=x", "application/json, text/plain")));
            case 1 -> body = HostileInput.malformed(random, "{}");
            case 2 -> {
                headers.put("Content-Type", "multipart/form-data; boundary=fuzz-boundary-7MA4YWxk");
                body = HostileInput.multipart(random).body();
            }
            default -> { }
        }
        String path = hostile.path();
        if (random.nextInt(4) == 0) {
            path = path + (path.contains("?") ? "&" : "?") + HostileInput.pick(random, List.of("limit=%E0%80", "a=%zz",
                    "%C3=1", "limit=abc"));
        }
        return new Case(number, endpoint, endpoint.method(), path, headers, body, true, null);
    }

    /** What is wrong with the answer to a request without a valid key (anything but a 401 in the error shape). */
    private static String unauthorized(HttpClient client, String base, Case hostile, Map<Integer, Integer> statuses) {
        try {
            HttpResponse<String> answer = send(client, base, hostile);
            statuses.merge(answer.statusCode(), 1, Integer::sum);
            if (answer.statusCode() != 401) {
                return "answered " + answer.statusCode() + " instead of 401: " + abbreviated(answer.body());
            }
            return errorShape(401, answer);
        } catch (IllegalArgumentException e) {
            statuses.merge(-1, 1, Integer::sum);
            return null;
        } catch (IOException e) {
            // Refused before its body was read: the connection may close under a large body.
            return hostile.body().length > MAX_BODY ? null : "no answer: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * Every JSON body endpoint refuses a valid body one level deeper than {@code JsonLimits.MAX_DEPTH} with the 400
     * that names the rule (asked with the right credentials, of an id that does not exist: the body is read first);
     * an endpoint listed with a body to fuzz its refusals but that reads none answers 415 or 404.
     */
    private static String tooDeepIsRefused(HttpClient client, String base, Endpoint endpoint, String valid) {
        String body = new String(HostileInput.valueAt(valid,
                HostileInput.nestedText(dev.voiceplane.kit.json.JsonLimits.MAX_DEPTH)), UTF_8);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        if (endpoint.path().startsWith("/internal/")) {
            headers.put("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN));
            headers.put("X-Voice-Org-Id", TestKeys.ORG_A);
        } else {
            headers.put("Authorization", TestKeys.bearer(TestKeys.KEY_A));
        }
        Case deep = new Case(-1, endpoint, endpoint.method(), endpoint.path().replace("{id}", UUID.randomUUID().toString()),
                headers, body.getBytes(UTF_8), true, null);
        try {
            HttpResponse<String> answer = send(client, base, deep);
            if (answer.statusCode() == 415 || answer.statusCode() == 404) {
                // The endpoint reads no JSON body (an upload, whose refusals are fuzzed too, or a route that takes
                // none, such as POST /call/{id}/end, of an id that does not exist): nothing of it is stored.
                return errorShape(answer.statusCode(), answer);
            }
            if (answer.statusCode() != 400 || !answer.body().contains("nested too deeply")) {
                return "a body nested deeper than the limit: " + deep.describe() + "\n    -> answered "
                        + answer.statusCode() + ": " + abbreviated(answer.body());
            }
            return errorShape(400, answer);
        } catch (IOException e) {
            return "a body nested deeper than the limit: " + deep.describe() + "\n    -> no answer: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Where an accepted request to this endpoint reads back, or null when it does not. */
    private String readBackCollection(Endpoint endpoint) {
        if (readBack.containsKey(endpoint.path())) {
            return readBack.get(endpoint.path());
        }
        String method = endpoint.method();
        if ((method.equals("PATCH") || method.equals("PUT")) && endpoint.path().endsWith("/{id}")
                && !endpoint.path().startsWith("/internal/")) {
            return endpoint.collection();
        }
        boolean listed = endpoints.stream().anyMatch(e -> e.list() && e.path().equals(endpoint.path()));
        return method.equals("POST") && listed ? endpoint.path() : null;
    }

    /**
     * What an accepted write must allow (issue 24: a 999-deep body was accepted and then failed every read and its
     * organisation's list): the record reads by id and the list reads, and an upload's bytes come back exactly.
     */
    private String readsBack(HttpClient client, String base, Case accepted, HttpResponse<String> answer) {
        String collection = readBackCollection(accepted.endpoint());
        if (collection == null || accepted.method().equals("GET") || accepted.method().equals("DELETE")) {
            return null;
        }
        String id;
        try {
            id = HostileInput.read(answer.body()).path("id").asText(null);
        } catch (RuntimeException e) {
            return "accepted (" + answer.statusCode() + ") with an answer that is not JSON: " + abbreviated(answer.body());
        }
        if (id == null) {
            return "accepted (" + answer.statusCode() + ") without an id: " + abbreviated(answer.body());
        }
        String key = accepted.headers().get("Authorization");
        for (String path : List.of(collection + "/" + id, collection)) {
            HttpResponse<byte[]> read = get(client, base + path, key);
            if (read == null || read.statusCode() != 200) {
                return "accepted, but GET " + path + " answered " + (read == null ? "nothing"
                        : read.statusCode() + ": " + abbreviated(new String(read.body(), UTF_8)));
            }
        }
        if (accepted.endpoint().upload() && accepted.file() != null) {
            HttpResponse<byte[]> content = get(client, base + collection + "/" + id + "/content", key);
            if (content == null || !java.util.Arrays.equals(accepted.file(), content.body())) {
                return "accepted, but the content read back is not the bytes sent: "
                        + (content == null ? "no answer" : content.statusCode() + " " + content.body().length + " bytes");
            }
        }
        return null;
    }

    private static HttpResponse<byte[]> get(HttpClient client, String url, String authorization) {
        try {
            return client.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", authorization).GET()
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private record Target(String segment, boolean ownVictim) {
    }

    private Target target(Random random, Endpoint endpoint) {
        List<Stored> ofCollection = stored.stream().filter(s -> s.collection().equals(endpoint.collection())).toList();
        List<Stored> own = ofCollection.stream().filter(s -> s.key().equals(TestKeys.KEY_A)).toList();
        List<Stored> others = ofCollection.stream().filter(s -> !s.key().equals(TestKeys.KEY_A)).toList();
        int kind = random.nextInt(20);
        if (kind < 4 || ofCollection.isEmpty()) {
            return new Target(UUID.randomUUID().toString(), false);
        }
        if (kind < 7 && !others.isEmpty()) {
            return new Target(HostileInput.pick(random, others).id(), false);
        }
        // Organisation A's records only receive requests that must fail (or reads): they must read back unchanged.
        boolean harmless = endpoint.method().equals("GET") || endpoint.hasBody();
        if (kind < 10 && !own.isEmpty() && harmless) {
            return new Target(HostileInput.pick(random, own).id(), true);
        }
        String near = HostileInput.pick(random, ofCollection).id();
        return new Target(HostileInput.segment(random, HostileInput.malformedId(random, near)), false);
    }

    // ---- sending and judging -------------------------------------------------------------------------------------

    private static HttpResponse<String> send(HttpClient client, String base, Case hostile)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + hostile.path()))
                .timeout(Duration.ofSeconds(60))
                .method(hostile.method(), hostile.body().length == 0 && !hostile.headers().containsKey("Content-Type")
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(hostile.body()));
        hostile.headers().forEach(request::header);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString(UTF_8));
    }

    /** What is wrong with this answer to this request, or null. */
    private static String judge(Case hostile, HttpResponse<String> answer) {
        int status = answer.statusCode();
        if (status >= 500) {
            return "answered " + status + ": " + abbreviated(answer.body());
        }
        if (hostile.mustFail() && status < 400) {
            return "accepted (" + status + ") a request that must fail: " + abbreviated(answer.body());
        }
        if (status >= 400) {
            return errorShape(status, answer);
        }
        return null;
    }

    private static String errorShape(int status, HttpResponse<String> answer) {
        String type = answer.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("application/json")) {
            return status + " with Content-Type '" + type + "': " + abbreviated(answer.body());
        }
        JsonNode error;
        try {
            error = HostileInput.read(answer.body());
        } catch (RuntimeException e) {
            return status + " whose body is not JSON: " + abbreviated(answer.body());
        }
        boolean messageOk = error.path("message").isTextual()
                || (error.path("message").isArray() && allText(error.path("message")));
        if (error.path("statusCode").asInt() != status || !error.path("error").isTextual()
                || error.path("error").asText().isBlank() || !messageOk || error.size() != 3) {
            return status + " not in the error shape: " + abbreviated(answer.body());
        }
        return null;
    }

    private static boolean allText(JsonNode messages) {
        for (JsonNode message : messages) {
            if (!message.isTextual()) {
                return false;
            }
        }
        return true;
    }

    // ---- secrets: write-only, never in an answer -------------------------------------------------------------------

    /** Remembers the secret values a valid body writes (fields of {@link #SECRET_FIELDS}, at any depth). */
    private void collectSecrets(String body) {
        JsonNode document;
        try {
            document = HostileInput.read(body);
        } catch (RuntimeException notJson) {
            return;
        }
        collectSecrets(document);
    }

    private void collectSecrets(JsonNode node) {
        if (node == null) {
            return;
        }
        if (node.isObject()) {
            node.properties().forEach(field -> {
                if (SECRET_FIELDS.contains(field.getKey()) && field.getValue().isTextual()
                        && field.getValue().asText().length() >= 8) {
                    secrets.add(field.getValue().asText());
                }
                collectSecrets(field.getValue());
            });
        } else if (node.isArray()) {
            node.forEach(this::collectSecrets);
        }
    }

    /** A problem when an answer holds a secret some body wrote. */
    private String leakedSecret(String answer) {
        if (answer == null) {
            return null;
        }
        for (String secret : secrets) {
            if (answer.contains(secret)) {
                return "answered a write-only secret (" + secret.substring(0, 3) + "…): " + abbreviated(answer);
            }
        }
        return null;
    }

    // ---- records stored before the run ---------------------------------------------------------------------------

    private void createStored(HttpClient client, String base) {
        for (String creation : creations) {
            String collection = creation.substring(0, creation.indexOf('\n'));
            String body = creation.substring(creation.indexOf('\n') + 1);
            for (String key : List.of(TestKeys.KEY_A, TestKeys.KEY_B)) {
                try {
                    HttpResponse<String> created = client.send(HttpRequest.newBuilder(URI.create(base + collection))
                            .header("Authorization", TestKeys.bearer(key))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                    if (created.statusCode() / 100 != 2) {
                        throw new AssertionError("cannot create a record in " + collection + ": " + created.body());
                    }
                    String id = HostileInput.read(created.body()).path("id").asText();
                    Stored record = new Stored(collection, id, key, null);
                    stored.add(new Stored(collection, id, key, read(client, base, record)));
                } catch (IOException e) {
                    throw new AssertionError(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                }
            }
        }
    }

    private static String read(HttpClient client, String base, Stored record) {
        try {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(base + record.collection() + "/"
                            + record.id())).header("Authorization", TestKeys.bearer(record.key())).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return answer.statusCode() + " " + answer.body();
        } catch (IOException e) {
            return "no answer: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String abbreviated(Object value) {
        String text = String.valueOf(value);
        return text.length() > 400 ? text.substring(0, 400) + "…" : text;
    }
}
