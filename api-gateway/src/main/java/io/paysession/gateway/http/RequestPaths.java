package io.paysession.gateway.http;

import jakarta.servlet.http.HttpServletRequest;

import java.util.Locale;

/**
 * The one path every filter and guard decides on. {@link NormalPathFilter} lets through only requests whose path
 * as sent is already in normal form, so this path, the container's decoded and normalized one, is also what the
 * handler mappings match: a filter can never look at one path while a controller answers another.
 */
public final class RequestPaths {

    private RequestPaths() {
    }

    /** The request's path inside the application: decoded, normalized, without path parameters. */
    public static String of(HttpServletRequest request) {
        String servletPath = request.getServletPath();
        String pathInfo = request.getPathInfo();
        String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
        return path.isEmpty() ? "/" : path;
    }

    /**
     * Whether the path is {@code prefix} or below it, ignoring case: a protected prefix written in another case
     * matches no handler, but a filter must not be the thing that decides so.
     */
    public static boolean isUnder(String path, String prefix) {
        String lower = path.toLowerCase(Locale.ROOT);
        return lower.equals(prefix) || lower.startsWith(prefix + "/");
    }
}
