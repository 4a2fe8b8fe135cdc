package io.paysession.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, the request line exactly as given: {@code java.net.http} refuses or rewrites the
 * paths an attacker sends ({@code \}, {@code ;}, {@code %2e}, {@code //}), so tests of such paths write the bytes.
 */
public final class RawHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The answer: status code, body text, and the body as JSON (a missing node when it is not JSON). */
    public record RawAnswer(int status, String text, JsonNode body) {
        public String errorCode() {
            return body.path("error").path("code").asText(null);
        }

        @Override
        public String toString() {
            return status + " " + text;
        }
    }

    private RawHttp() {
    }

    public static RawAnswer send(int port, String method, String rawPath, Map<String, String> headers, byte[] body) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            StringBuilder head = new StringBuilder(method).append(' ').append(rawPath).append(" HTTP/1.1\r\n")
                    .append("Host: 127.0.0.1:").append(port).append("\r\n")
                    .append("Connection: close\r\n");
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            if (body.length > 0 || !"GET".equals(method)) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RawAnswer parse(byte[] response) throws IOException {
        String text = new String(response, StandardCharsets.ISO_8859_1);
        int headEnd = text.indexOf("\r\n\r\n");
        if (headEnd < 0) {
            throw new IOException("no HTTP answer: " + text);
        }
        String[] lines = text.substring(0, headEnd).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        boolean chunked = false;
        for (String line : lines) {
            if (line.toLowerCase().startsWith("transfer-encoding:") && line.toLowerCase().contains("chunked")) {
                chunked = true;
            }
        }
        byte[] rest = java.util.Arrays.copyOfRange(response, headEnd + 4, response.length);
        byte[] body = chunked ? dechunk(rest) : rest;
        String bodyText = new String(body, StandardCharsets.UTF_8);
        JsonNode json;
        try {
            json = bodyText.isBlank() ? JSON.missingNode() : JSON.readTree(bodyText);
        } catch (IOException e) {
            json = JSON.missingNode();
        }
        return new RawAnswer(status, bodyText, json);
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int position = 0;
        while (position < chunked.length) {
            int lineEnd = indexOfCrlf(chunked, position);
            if (lineEnd < 0) {
                break;
            }
            String sizeText = new String(chunked, position, lineEnd - position, StandardCharsets.ISO_8859_1);
            int size = Integer.parseInt(sizeText.split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            out.write(chunked, lineEnd + 2, size);
            position = lineEnd + 2 + size + 2;
        }
        return out.toByteArray();
    }

    private static int indexOfCrlf(byte[] bytes, int from) {
        for (int i = from; i < bytes.length - 1; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
