package io.paysession.gateway.http;

import io.paysession.api.RequestMetadataKeys;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The request behind a command, carried as command metadata and copied onto its events: the endpoint, the
 * project, the idempotency key (when sent) and the request id (also answered as {@code X-Request-Id}), under the
 * keys of {@link RequestMetadataKeys}.
 */
public final class RequestMetadata {

    static final String REQUEST_ID_ATTRIBUTE = RequestMetadata.class.getName() + ".requestId";
    /** The project of a request made without the partner's headers (a widget's, with a public token). */
    public static final String PROJECT_ATTRIBUTE = RequestMetadata.class.getName() + ".project";

    private RequestMetadata() {
    }

    /** The request id of this request, made on first use. */
    public static String requestId(HttpServletRequest request) {
        Object id = request.getAttribute(REQUEST_ID_ATTRIBUTE);
        if (id instanceof String existing) {
            return existing;
        }
        String made = "req_" + UUID.randomUUID().toString().replace("-", "");
        request.setAttribute(REQUEST_ID_ATTRIBUTE, made);
        return made;
    }

    /** The metadata of the current request; empty outside one (a process, a deadline). */
    public static Map<String, Object> current() {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)) {
            return Map.of();
        }
        HttpServletRequest request = attributes.getRequest();
        Map<String, Object> metadata = new HashMap<>();
        metadata.put(RequestMetadataKeys.ENDPOINT, request.getMethod() + " " + RequestPaths.of(request));
        String project = request.getHeader("X-PARTNER-PROJECT");
        if (project == null && request.getAttribute(PROJECT_ATTRIBUTE) instanceof String fromToken) {
            project = fromToken;
        }
        if (project != null) {
            metadata.put(RequestMetadataKeys.PROJECT, project);
        }
        String key = request.getHeader("X-PARTNER-IDEMPOTENCY-KEY");
        if (key != null) {
            metadata.put(RequestMetadataKeys.IDEMPOTENCY_KEY, key);
        }
        metadata.put(RequestMetadataKeys.REQUEST_ID, requestId(request));
        return metadata;
    }
}
