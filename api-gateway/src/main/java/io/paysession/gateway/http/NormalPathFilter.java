package io.paysession.gateway.http;

import io.paysession.api.error.ErrorCode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * Refuses, before any other filter, every request whose path as sent is not in normal form: a path parameter
 * ({@code ;}), a percent escape, a backslash, an empty segment ({@code //}) or a {@code .}/{@code ..} segment
 * (the rules of Spring Security's {@code StrictHttpFirewall}). The container and the handler mappings each
 * decode and normalize such paths in their own way ({@code /api;x=1/v1/fps/banks} and {@code /%61pi/v1/fps/banks}
 * reached the bank list while the signature filter, looking at the raw path, saw no {@code /api/}); with only
 * normal paths let through, the raw path, the container's path ({@link RequestPaths}) and the path a controller
 * is chosen by are one and the same. No path of this service needs any of these characters.
 * <p>
 * The answer is 400 {@code invalid_request} in the contract's error shape. What Tomcat refuses itself (a malformed
 * or encoded-slash escape) never reaches this filter and is answered by {@code JsonErrorReportValve}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class NormalPathFilter extends OncePerRequestFilter {

    static final String NOT_NORMAL = "The request path must be in normal form: no ';', '%' escapes, '\\', '//', "
            + "'.' or '..' segments";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String raw = request.getRequestURI().substring(request.getContextPath().length());
        if (!isNormal(raw) || !raw.equals(RequestPaths.of(request))) {
            response.setHeader("X-Request-Id", RequestMetadata.requestId(request));
            ApiResponses.writeError(response, 400, ErrorCode.INVALID_REQUEST, NOT_NORMAL);
            return;
        }
        chain.doFilter(request, response);
    }

    /** A path as sent is normal when it needs no decoding and no normalization. */
    static boolean isNormal(String raw) {
        if (raw.isEmpty() || raw.charAt(0) != '/' || raw.contains("//")) {
            return false;
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == ';' || c == '%' || c == '\\') {
                return false;
            }
        }
        for (String segment : raw.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
