package io.paysession.gateway.idempotency;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import java.util.Optional;

/** The key a running request owns, kept on the request while it runs. */
final class IdempotencyClaim {

    private static final String ATTRIBUTE = IdempotencyClaim.class.getName();

    final String project;
    final String key;
    final String endpoint;
    final String requestId;
    /** The request whose node died holding the key, when this one took it over. */
    final String abandonedBy;
    volatile String sessionId;

    IdempotencyClaim(String project, String key, String endpoint, String requestId, String abandonedBy,
                     String sessionId) {
        this.project = project;
        this.key = key;
        this.endpoint = endpoint;
        this.requestId = requestId;
        this.abandonedBy = abandonedBy;
        this.sessionId = sessionId;
    }

    void attachTo(HttpServletRequest request) {
        request.setAttribute(ATTRIBUTE, this);
    }

    /** The claim of the request being handled on this thread, if it has one. */
    static Optional<IdempotencyClaim> current() {
        if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes
                && attributes.getRequest().getAttribute(ATTRIBUTE) instanceof IdempotencyClaim claim) {
            return Optional.of(claim);
        }
        return Optional.empty();
    }
}
