package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.session.SessionLimits;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;

import java.io.IOException;
import java.util.Optional;

/**
 * Request bodies read with a limit: 64 KiB (decisions.md section 1) on every path but the sandbox webhook inbox, which
 * takes what the service itself sends ({@link #MAX_INBOX_BYTES}). {@link RequestBodyLimitFilter} puts every request's
 * stream behind {@link #limited}, so no code, ours or a library's, can read a byte past the limit: a body that declares
 * a larger {@code Content-Length} fails on its first read without a byte being read, a chunked one when the limit is
 * passed.
 */
public final class RequestBodies {

    public static final int MAX_BYTES = 64 * 1024;
    public static final String TOO_LARGE = "The body is larger than 64 KiB";
    /** The sandbox inbox receives webhooks: a webhook body of the service is at most this. */
    public static final int MAX_INBOX_BYTES = SessionLimits.MAX_WEBHOOK_BODY_BYTES;
    static final String INBOX_PATH = "/sandbox/webhooks/";
    private static final String JSON_ATTRIBUTE = RequestBodies.class.getName() + ".json";

    private RequestBodies() {
    }

    /** The raw body, or empty when it is (or says it is) larger than the limit of its path. */
    public static Optional<byte[]> readAtMostTheLimit(HttpServletRequest request) throws IOException {
        int limit = limitOf(request);
        if (request.getContentLengthLong() > limit) {
            return Optional.empty();
        }
        try {
            // one byte past the limit tells a body of exactly the limit from a longer one without a Content-Length
            byte[] body = request.getInputStream().readNBytes(limit + 1);
            return body.length > limit ? Optional.empty() : Optional.of(body);
        } catch (BodyTooLargeException e) {
            return Optional.empty();
        }
    }

    /** The raw body, or a 413 {@code invalid_request} refusal when it is larger than the limit of its path. */
    public static byte[] readOrRefuse(HttpServletRequest request) throws IOException {
        return readAtMostTheLimit(request).orElseThrow(() ->
                new HttpException(413, ErrorCode.INVALID_REQUEST, tooLarge(request)));
    }

    /** The 413 answer's description for the request's path. */
    public static String tooLarge(HttpServletRequest request) {
        return limitOf(request) == MAX_BYTES ? TOO_LARGE : "The body is larger than " + limitOf(request) / 1024 + " KiB";
    }

    static int limitOf(HttpServletRequest request) {
        return pathOf(request).startsWith(INBOX_PATH) ? MAX_INBOX_BYTES : MAX_BYTES;
    }

    /** The container's decoded, normalized path, as the servlet mapping sees it. */
    public static String pathOf(HttpServletRequest request) {
        return request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    }

    /** {@code true} when the request carries a body: a positive length, or chunks. */
    public static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
    }

    /**
     * The verified body of a partner request as a JSON object, read once however many steps of the request ask
     * for it (the idempotency key's fingerprint, then the controller). The tree is shared: read it, never change it.
     */
    public static ObjectNode json(HttpServletRequest request) {
        if (request.getAttribute(JSON_ATTRIBUTE) instanceof ObjectNode read) {
            return read;
        }
        ObjectNode read = JsonBodies.readObject((byte[]) request.getAttribute(PartnerSignatureFilter.BODY_ATTRIBUTE));
        request.setAttribute(JSON_ATTRIBUTE, read);
        return read;
    }

    /**
     * {@code in} that never reads more than {@code limit + 1} bytes from the connection and fails with
     * {@link BodyTooLargeException} past {@code limit}; with a declared length above the limit it fails at once.
     */
    static ServletInputStream limited(ServletInputStream in, long declaredLength, int limit) {
        return new ServletInputStream() {
            private long count;

            @Override
            public int read() throws IOException {
                refuseDeclaredLength();
                int next = in.read();
                if (next >= 0 && ++count > limit) {
                    throw new BodyTooLargeException(limit);
                }
                return next;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                refuseDeclaredLength();
                if (length == 0) {
                    return 0;
                }
                // at most one byte past the limit is ever taken from the connection
                int read = in.read(buffer, offset, (int) Math.min(length, limit - count + 1));
                if (read > 0) {
                    count += read;
                    if (count > limit) {
                        throw new BodyTooLargeException(limit);
                    }
                }
                return read;
            }

            private void refuseDeclaredLength() throws BodyTooLargeException {
                if (declaredLength > limit || count > limit) {
                    throw new BodyTooLargeException(limit);
                }
            }

            @Override
            public boolean isFinished() {
                return in.isFinished();
            }

            @Override
            public boolean isReady() {
                return in.isReady();
            }

            @Override
            public void setReadListener(ReadListener listener) {
                in.setReadListener(listener);
            }
        };
    }

    /** A body read past its limit: the request is answered 413 {@code invalid_request}. */
    public static final class BodyTooLargeException extends IOException {
        BodyTooLargeException(int limit) {
            super("The body is larger than " + limit / 1024 + " KiB");
        }
    }
}
