package io.paysession.gateway.http;

import io.paysession.api.error.ErrorCode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * The outermost filter: a request that fails because the store cannot be reached is answered 503
 * {@code service_unavailable} in the contract's error shape, wherever the failure arose. Controllers' failures are
 * mapped by {@code ApiExceptionHandler}; this catches what the filters before them meet (the partner lookup of the
 * signature filter, the idempotency store), which used to reach the container as a 500.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class StoreUnavailableFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(StoreUnavailableFilter.class);

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (ServletException | RuntimeException e) {
            if (!StoreFailures.isUnavailable(e) || response.isCommitted()) {
                throw e;
            }
            log.warn("Store unavailable: {}", e.toString());
            response.reset();
            response.setHeader("X-Request-Id", RequestMetadata.requestId(request));
            ApiResponses.writeError(response, 503, ErrorCode.SERVICE_UNAVAILABLE,
                    ApiExceptionHandler.UNAVAILABLE);
        }
    }
}
