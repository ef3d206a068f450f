package dev.voiceplane.runtime.fake;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A WebSocket client written on a plain socket, for what real clients refuse to send: any handshake (methods,
 * missing or odd headers, bodies) and any frame (fragments, text that is not UTF-8, frames of any size). It reads the
 * handshake's answer whole, then frames until a close frame or the end of the connection.
 */
public final class RawWebSocket implements AutoCloseable {

    /** The handshake's answer: status, head (status line and headers) and body. */
    public record Answer(int status, String head, String body) {
        public boolean header(String name, String value) {
            return Pattern.compile("(?im)^" + Pattern.quote(name) + ":\\s*" + Pattern.quote(value) + "\\s*$")
                    .matcher(head).find();
        }
    }

    /** What the server sent after the upgrade, up to its close: texts, and the close code (null: no close frame). */
    public record Ending(java.util.List<String> texts, Integer code, String reason) {
    }

    public static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    private static final int TEXT = 1;
    private static final int BINARY = 2;
    private static final int CONTINUATION = 0;
    private static final int CLOSE = 8;

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final Random masks = new Random(1);
    public final Answer answer;

    private RawWebSocket(Socket socket, Answer answer, DataInputStream in) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = in;
        this.answer = answer;
    }

    /** A genuine handshake for {@code target}, with {@code extraHeaders} (each ending in CRLF). */
    public static String handshake(String target, String extraHeaders) {
        return "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n" + extraHeaders + "\r\n";
    }

    /** Sends {@code request} as it is and reads the answer's head and body (by its Content-Length). */
    public static RawWebSocket open(int port, String request) throws IOException {
        Socket socket = new Socket("localhost", port);
        socket.setSoTimeout(30_000);
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                socket.close();
                throw new IOException("the connection ended before an answer: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(text.substring(9, 12));
        String body = "";
        Matcher length = Pattern.compile("(?im)^content-length:\\s*(\\d+)").matcher(text);
        if (status != 101 && length.find()) {
            byte[] bytes = new byte[Integer.parseInt(length.group(1))];
            in.readFully(bytes);
            body = new String(bytes, StandardCharsets.UTF_8);
        }
        return new RawWebSocket(socket, new Answer(status, text.strip(), body), in);
    }

    public void text(String text) throws IOException {
        frame(true, TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    public void binary(byte[] payload) throws IOException {
        frame(true, BINARY, payload);
    }

    /** A message in fragments: the first with {@code opcode}, the rest continuations, the last final. */
    public void fragments(boolean text, byte[]... parts) throws IOException {
        for (int i = 0; i < parts.length; i++) {
            frame(i == parts.length - 1, i == 0 ? (text ? TEXT : BINARY) : CONTINUATION, parts[i]);
        }
    }

    /** A text frame of bytes as they are (UTF-8 or not). */
    public void textBytes(byte[] payload) throws IOException {
        frame(true, TEXT, payload);
    }

    public void close(int code) throws IOException {
        frame(true, CLOSE, new byte[] {(byte) (code >> 8), (byte) code});
    }

    /** A binary frame's head declaring {@code declared} bytes, followed by only {@code sent} of them. */
    public void oversizedFrame(long declared, int sent) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(sent + 14);
        frame.write(0x80 | BINARY);
        frame.write(0x80 | 127);
        for (int shift = 56; shift >= 0; shift -= 8) {
            frame.write((int) (declared >> shift));
        }
        frame.write(new byte[4], 0, 4);
        frame.write(new byte[sent], 0, sent);
        try {
            out.write(frame.toByteArray());
            out.flush();
        } catch (SocketException closedWhileWriting) {
            // Refused while still being written: read what the server said.
        }
    }

    /** One masked frame, as a client must send it. */
    public void frame(boolean fin, int opcode, byte[] payload) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
        frame.write((fin ? 0x80 : 0) | opcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length < 65536) {
            frame.write(0x80 | 126);
            frame.write(payload.length >> 8);
            frame.write(payload.length);
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) ((long) payload.length >> shift));
            }
        }
        byte[] mask = new byte[4];
        masks.nextBytes(mask);
        frame.write(mask, 0, 4);
        byte[] masked = new byte[payload.length];
        for (int i = 0; i < payload.length; i++) {
            masked[i] = (byte) (payload[i] ^ mask[i % 4]);
        }
        frame.write(masked, 0, masked.length);
        try {
            out.write(frame.toByteArray());
            out.flush();
        } catch (SocketException closedWhileWriting) {
            // The server may close (or reset) while an oversized frame is still being written: read what it said.
        }
    }

    /** Reads frames until a text frame arrives (returned) or the socket ends (null). */
    public String nextText() throws IOException {
        while (true) {
            int[] header = new int[1];
            byte[] payload = readFrame(header);
            if (payload == null || header[0] == CLOSE) {
                return null;
            }
            if (header[0] == TEXT) {
                return new String(payload, StandardCharsets.UTF_8);
            }
        }
    }

    /** Reads frames until the server's close frame (its code) or the end of the connection (no code). */
    public Ending ending() throws IOException {
        java.util.List<String> texts = new java.util.ArrayList<>();
        while (true) {
            int[] header = new int[1];
            byte[] payload;
            try {
                payload = readFrame(header);
            } catch (SocketException | SocketTimeoutException reset) {
                return new Ending(texts, null, String.valueOf(reset.getMessage()));
            }
            if (payload == null) {
                return new Ending(texts, null, "the connection ended");
            }
            if (header[0] == TEXT) {
                texts.add(new String(payload, StandardCharsets.UTF_8));
            } else if (header[0] == CLOSE) {
                Integer code = payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : null;
                String reason = payload.length > 2 ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8)
                        : "";
                return new Ending(texts, code, reason);
            }
        }
    }

    /** One frame's payload (its opcode in {@code opcode[0]}), or null at the end of the connection. */
    private byte[] readFrame(int[] opcode) throws IOException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        opcode[0] = first & 0x0f;
        int second = in.readUnsignedByte();
        long length = second & 0x7f;
        if (length == 126) {
            length = in.readUnsignedShort();
        } else if (length == 127) {
            length = in.readLong();
        }
        byte[] payload = new byte[(int) length];
        in.readFully(payload);
        return payload;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
