package dev.voiceplane.kit.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import io.restassured.RestAssured;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for what well-behaved clients refuse to send: literal braces and bad escapes in
 * the path, unparsable headers, bytes that are not UTF-8, a body shorter than its {@code Content-Length}. One
 * request per connection ({@code Connection: close}); the answer is read until the server closes.
 */
public final class RawHttp {

    /** How long a test waits for an answer before it fails (never a sleep: the answer usually comes at once). */
    private static final int READ_TIMEOUT_MILLIS = 30_000;

    private RawHttp() {
    }

    public record Answer(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** The port of the application under test ({@code @QuarkusTest} sets RestAssured's). */
    public static int port() {
        return RestAssured.port;
    }

    /**
     * Sends {@code head} (request line and headers, without the blank line) and then {@code body} as they are.
     * {@code Connection: close} is added; nothing else is.
     */
    public static Answer send(int port, String head, byte[] body) {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(ISO_8859_1));
            out.write(body);
            out.flush();
            return parse(readAll(socket.getInputStream()));
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer within " + READ_TIMEOUT_MILLIS + " ms to: " + head, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Answer send(String head, byte[] body) {
        return send(port(), head, body);
    }

    /**
     * Writes {@code requests} as they are, in one go (several requests: pipelined on one connection), and returns
     * every byte the server sent until it closed the connection. Nothing is added: the last request should say
     * {@code Connection: close}.
     */
    public static String exchange(String requests) {
        try (Socket socket = new Socket("localhost", port())) {
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(requests.getBytes(ISO_8859_1));
            out.flush();
            return new String(readAll(socket.getInputStream()), ISO_8859_1);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server did not close the connection within " + READ_TIMEOUT_MILLIS
                    + " ms after: " + requests, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Answer send(String head) {
        return send(head, new byte[0]);
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                all.write(buffer, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // A server may reset after answering (it did not read the whole request): keep what arrived.
            if (all.size() == 0) {
                throw reset;
            }
        }
        return all.toByteArray();
    }

    private static Answer parse(byte[] raw) {
        // One char per byte while framing (chunk sizes count bytes); the body is decoded as UTF-8 at the end.
        String text = new String(raw, ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new AssertionError("not an HTTP answer: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        String[] statusLine = lines[0].split(" ", 3);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        String body = text.substring(end + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = unchunk(body);
        }
        return new Answer(Integer.parseInt(statusLine[1]), headers,
                new String(body.getBytes(ISO_8859_1), java.nio.charset.StandardCharsets.UTF_8));
    }

    private static String unchunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int lineEnd = chunked.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";")[0].strip(), 16);
            if (size == 0) {
                break;
            }
            body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
        return body.toString();
    }
}
