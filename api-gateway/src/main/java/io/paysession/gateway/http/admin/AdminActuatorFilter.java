package io.paysession.gateway.http.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.error.ErrorCode;
import io.paysession.gateway.http.ApiResponses;
import io.paysession.gateway.http.PartnerSignatureFilter;
import io.paysession.gateway.http.RequestBodies;
import io.paysession.gateway.security.AdminToken;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * The actuator on the service's port answers operators only: {@code /actuator/**} needs the admin
 * bearer token (Prometheus sends it with {@code authorization: credentials}), except
 * {@code /actuator/health}, which load balancers and orchestrators probe without one.
 * <p>
 * The admin API ({@code /admin/**}) is checked here too, before anything reads its body: a request without the
 * token gets its 401 with its body unread (the controllers check the token again). An admin request with a body
 * must declare it as JSON, like a partner's (415 {@code invalid_request}).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class AdminActuatorFilter extends OncePerRequestFilter {

    private final AdminToken adminToken;
    private final ObjectMapper json = new ObjectMapper();

    public AdminActuatorFilter(AdminToken adminToken) {
        this.adminToken = adminToken;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // the container's decoded, normalized path: /actuator/health/../metrics must not pass as health
        String path = RequestBodies.pathOf(request);
        boolean actuator = path.equals("/actuator") || path.startsWith("/actuator/");
        boolean health = path.equals("/actuator/health") || path.startsWith("/actuator/health/");
        return !(actuator && !health || isAdminApi(path));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!adminToken.accepts(request.getHeader(HttpHeaders.AUTHORIZATION))) {
            response.setStatus(401);
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            json.writeValue(response.getOutputStream(),
                    ApiResponses.errorBody(ErrorCode.AUTHENTICATION_ERROR, "A valid admin bearer token is required"));
            return;
        }
        if (isAdminApi(RequestBodies.pathOf(request)) && RequestBodies.hasBody(request)
                && !PartnerSignatureFilter.isJson(request.getContentType())) {
            ApiResponses.writeError(response, 415, ErrorCode.INVALID_REQUEST,
                    "Content-Type must be application/json (UTF-8) for a request with a body");
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean isAdminApi(String path) {
        return path.equals("/admin") || path.startsWith("/admin/");
    }
}
