package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.http.HttpServletRequest;

import java.io.IOException;
import java.util.Optional;

/** Request bodies read with the limit of decisions.md section 1: 64 KiB, never a byte more than that is kept. */
public final class RequestBodies {

    public static final int MAX_BYTES = 64 * 1024;
    public static final String TOO_LARGE = "The body is larger than 64 KiB";
    private static final String JSON_ATTRIBUTE = RequestBodies.class.getName() + ".json";

    private RequestBodies() {
    }

    /** The raw body, or empty when it is (or says it is) larger than 64 KiB. */
    public static Optional<byte[]> readAtMostTheLimit(HttpServletRequest request) throws IOException {
        if (request.getContentLengthLong() > MAX_BYTES) {
            return Optional.empty();
        }
        // one byte past the limit tells a body of exactly 64 KiB from a longer one without a Content-Length
        byte[] body = request.getInputStream().readNBytes(MAX_BYTES + 1);
        return body.length > MAX_BYTES ? Optional.empty() : Optional.of(body);
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
}
