package io.paysession.gateway.http;

import io.paysession.api.error.ErrorCode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;

/**
 * The first filter of every request, on every path (partner API, admin, actuator, sandbox, widget, unknown paths):
 * the body can only be read through a stream that stops at the path's limit ({@link RequestBodies}). Nothing is read
 * here: a request is answered by whatever comes next (a 401 of a missing admin token, a 404 of an unknown path)
 * without its body having been touched, and a read past the limit, wherever it happens, ends in 413
 * {@code invalid_request}. Tomcat reads form and multipart bodies on its own, past this stream: both are capped in
 * {@code application.yml} ({@code server.tomcat.max-http-form-post-size}, {@code spring.servlet.multipart.enabled}).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestBodyLimitFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(new LimitedBodyRequest(request), response);
        } catch (IOException | ServletException | RuntimeException e) {
            if (!causedByTooLargeBody(e) || response.isCommitted()) {
                throw e;
            }
            response.reset();
            ApiResponses.writeError(response, 413, ErrorCode.INVALID_REQUEST, RequestBodies.tooLarge(request));
        }
    }

    static boolean causedByTooLargeBody(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestBodies.BodyTooLargeException) {
                return true;
            }
        }
        return false;
    }

    private static final class LimitedBodyRequest extends HttpServletRequestWrapper {
        private ServletInputStream stream;

        LimitedBodyRequest(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                HttpServletRequest request = (HttpServletRequest) getRequest();
                stream = RequestBodies.limited(request.getInputStream(), request.getContentLengthLong(),
                        RequestBodies.limitOf(request));
            }
            return stream;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            Charset charset;
            try {
                charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
                throw new UnsupportedEncodingException(encoding);
            }
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }
    }
}
