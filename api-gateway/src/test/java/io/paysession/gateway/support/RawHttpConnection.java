package io.paysession.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP/1.1 connection written by hand, so that a test decides exactly which bytes of a body the service gets and
 * when: a request line and headers that announce a body, then as much of it as the test chooses (often nothing), and
 * the answer read while the rest of the body is still owed. Every byte of body sent is counted, so a test can state
 * how much of a body the service had at most when it answered.
 */
public final class RawHttpConnection implements AutoCloseable {

    /** A parsed answer: status, lower-case header names, body text. */
    public record RawAnswer(int status, Map<String, String> headers, String body) {
        public JsonNode json() {
            try {
                return new ObjectMapper().readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        public String errorCode() {
            return json().path("error").path("code").asText(null);
        }
    }

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private long bodyBytesSent;

    public RawHttpConnection(int port) {
        try {
            socket = new Socket("127.0.0.1", port);
            // waiting for an answer the service never gives (because it waits for the body) ends the test here
            socket.setSoTimeout(30_000);
            out = socket.getOutputStream();
            in = socket.getInputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The request line and headers; {@code headers} are complete lines without the line ends. */
    public RawHttpConnection head(String method, String path, String... headers) {
        StringBuilder text = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (String header : headers) {
            text.append(header).append("\r\n");
        }
        text.append("\r\n");
        write(text.toString().getBytes(StandardCharsets.US_ASCII));
        return this;
    }

    /** {@code count} bytes of body as they are (for a body with a {@code Content-Length}). */
    public RawHttpConnection body(int count) {
        write(filler(count));
        bodyBytesSent += count;
        return this;
    }

    /** {@code count} bytes of body as chunks of at most 8 KiB (for {@code Transfer-Encoding: chunked}), no last chunk. */
    public RawHttpConnection chunks(int count) {
        int left = count;
        while (left > 0) {
            int size = Math.min(left, 8192);
            write((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            write(filler(size));
            write("\r\n".getBytes(StandardCharsets.US_ASCII));
            bodyBytesSent += size;
            left -= size;
        }
        return this;
    }

    public long bodyBytesSent() {
        return bodyBytesSent;
    }

    /** The answer, read while the body may still be owed. */
    public RawAnswer answer() {
        try {
            String head = readHead();
            String[] lines = head.split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            Map<String, String> headers = new TreeMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
            byte[] body;
            if (headers.containsKey("content-length")) {
                body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                body = readChunked();
            } else {
                body = new byte[0];
            }
            return new RawAnswer(status, headers, new String(body, StandardCharsets.UTF_8));
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer within 30 s after " + bodyBytesSent + " bytes of body", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int next = in.read();
            if (next < 0) {
                throw new AssertionError("connection closed before an answer, after " + bodyBytesSent + " bytes of body");
            }
            head.write(next);
            matched = next == end[matched] ? matched + 1 : (next == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.US_ASCII).trim();
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine();
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                readLine();
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            readLine();
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int next;
        while ((next = in.read()) >= 0 && next != '\n') {
            if (next != '\r') {
                line.write(next);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    private void write(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] filler(int count) {
        byte[] bytes = new byte[count];
        java.util.Arrays.fill(bytes, (byte) 'x');
        return bytes;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a test connection: nothing to report
        }
    }
}
