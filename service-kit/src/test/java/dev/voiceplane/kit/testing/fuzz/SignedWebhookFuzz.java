package dev.voiceplane.kit.testing.fuzz;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Webhooks signed by their sender (a carrier) that say something malformed: the part of the fuzz suite for routes
 * that take a signature instead of an API key, which {@link FuzzSuite}'s unsigned requests never get past. Each case
 * takes a valid webhook, replaces one field with a hostile value (or removes it), signs the result as the sender
 * would ({@link Webhook#sign}) and sends it. For every answer: never a 5xx (a sender retries those for hours);
 * every 4xx in the error shape; and a field named {@link Webhook#acknowledged} (the sender's ids and statuses: what
 * can never be applied, however often it is sent) is answered 2xx, so that the sender stops, unless the HTTP
 * layer's limits answered first (413, 414, 431: a 60,000-character value in a URL the service gave out).
 *
 * <pre>{@code
 * SignedWebhookFuzz.of("telephony-service")
 *         .webhook(new Webhook("twilio status", validFields, Set.of("CallSid", "CallStatus"), fields -> signed(fields)))
 *         .cases(400)
 *         .run();
 * }</pre>
 * Seeded as {@link FuzzSuite} is ({@code -Dvoice.fuzz.seed}, {@code -Dvoice.fuzz.cases}, {@code -Dvoice.fuzz.case}).
 */
public final class SignedWebhookFuzz {

    private static final int DEFAULT_CASES = 400;
    private static final int FAILURES_SHOWN = 8;

    /** A request as its sender would send it, signature included. */
    public record SignedRequest(String pathAndQuery, Map<String, String> headers, byte[] body) {
    }

    /**
     * One webhook: its valid fields (in order), which of them must be acknowledged whatever they hold, and how a set
     * of fields becomes a signed request (where each field goes, query or body, is the signer's business; a field
     * missing from the map is left out).
     */
    public record Webhook(String name, Map<String, String> validFields, Set<String> acknowledged,
            Function<Map<String, String>, SignedRequest> sign) {
    }

    private final String service;
    private final List<Webhook> webhooks = new ArrayList<>();
    private int cases = DEFAULT_CASES;

    private SignedWebhookFuzz(String service) {
        this.service = service;
    }

    public static SignedWebhookFuzz of(String service) {
        return new SignedWebhookFuzz(service);
    }

    public SignedWebhookFuzz webhook(Webhook webhook) {
        webhooks.add(webhook);
        return this;
    }

    public SignedWebhookFuzz cases(int count) {
        this.cases = count;
        return this;
    }

    /** A hostile value for a field that held {@code valid}; null means the field is left out. */
    static String hostile(Random random, String valid) {
        return switch (random.nextInt(10)) {
            case 0 -> null;
            case 1 -> "x".repeat(random.nextBoolean() ? 5_000 : 60_000);
            case 2 -> HostileInput.pick(random, List.of("", " ", "\u0000", "%00", "\t", "\ud800", "null", "-1"));
            case 3 -> valid + HostileInput.pick(random, List.of("\u0000", "\n", "\ud800", " ", "x".repeat(300)));
            case 4, 5 -> HostileInput.malformedId(random, null);
            default -> HostileInput.text(random);
        };
    }

    public void run() {
        long seed = FuzzSuite.seed();
        int total = Integer.getInteger("voice.fuzz.cases", cases);
        Integer only = Integer.getInteger("voice.fuzz.case");
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        String base = RestAssured.baseURI + ":" + RestAssured.port;
        Random random = new Random(seed);
        List<String> failures = new ArrayList<>();
        int failed = 0;
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int number = 0; number < total; number++) {
            Webhook webhook = HostileInput.pick(random, webhooks);
            List<String> names = new ArrayList<>(webhook.validFields().keySet());
            // Mostly the fields that must be acknowledged: they are the point of this suite.
            List<String> acknowledged = names.stream().filter(webhook.acknowledged()::contains).toList();
            String field = !acknowledged.isEmpty() && random.nextInt(4) != 0
                    ? HostileInput.pick(random, acknowledged)
                    : HostileInput.pick(random, names);
            String value = hostile(random, webhook.validFields().get(field));
            if (only != null && only != number) {
                continue;
            }
            Map<String, String> fields = new LinkedHashMap<>(webhook.validFields());
            if (value == null) {
                fields.remove(field);
            } else {
                fields.put(field, value);
            }
            String described = "case " + number + ": " + webhook.name() + " with " + field + " = "
                    + (value == null ? "(left out)" : abbreviated(value));
            String problem;
            try {
                SignedRequest request = webhook.sign().apply(fields);
                HttpResponse<String> answer = send(client, base, request);
                statuses.merge(answer.statusCode(), 1, Integer::sum);
                problem = judge(answer, webhook.acknowledged().contains(field));
            } catch (IOException e) {
                problem = "no answer: " + e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
            if (problem != null) {
                failed++;
                if (failures.size() < FAILURES_SHOWN) {
                    failures.add(described + "\n    -> " + problem);
                }
            }
        }
        System.out.println("signed webhook fuzz of " + service + ": " + total + " cases, seed " + seed + ", statuses "
                + statuses);
        if (failed > 0) {
            throw new AssertionError(failed + " of " + total + " signed webhooks to " + service
                    + " were answered wrongly (replay: -Dvoice.fuzz.seed=" + seed + " -Dvoice.fuzz.case=<n>):\n"
                    + String.join("\n", failures));
        }
    }

    private static HttpResponse<String> send(HttpClient client, String base, SignedRequest request)
            throws IOException, InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + request.pathAndQuery()))
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.body()));
        request.headers().forEach(builder::header);
        return client.send(builder.build(), HttpResponse.BodyHandlers.ofString(UTF_8));
    }

    private static String judge(HttpResponse<String> answer, boolean mustBeAcknowledged) {
        int status = answer.statusCode();
        if (status >= 500) {
            return "answered " + status + " (the sender would retry): " + abbreviated(answer.body());
        }
        // The HTTP layer's limits (request line, header block, body size) answer before any signature is read.
        boolean limit = status == 413 || status == 414 || status == 431;
        if (mustBeAcknowledged && status / 100 != 2 && !limit) {
            return "answered " + status + ", not acknowledged (2xx): " + abbreviated(answer.body());
        }
        if (status >= 400) {
            JsonNode body;
            try {
                body = HostileInput.read(answer.body());
            } catch (RuntimeException notJson) {
                return "answered " + status + " outside the error shape: " + abbreviated(answer.body());
            }
            if (body == null || !body.isObject() || body.size() != 3 || !body.has("message")
                    || !body.has("error") || body.path("statusCode").asInt() != status) {
                return "answered " + status + " outside the error shape: " + abbreviated(answer.body());
            }
        }
        return null;
    }

    private static String abbreviated(String text) {
        String shown = text.length() > 120 ? text.substring(0, 120) + "… (" + text.length() + " characters)" : text;
        StringBuilder visible = new StringBuilder();
        shown.codePoints().forEach(c -> {
            if (Character.isISOControl(c) || (c >= 0xd800 && c <= 0xdfff)) {
                visible.append(String.format("\\u%04x", c));
            } else {
                visible.appendCodePoint(c);
            }
        });
        return visible.toString();
    }
}
