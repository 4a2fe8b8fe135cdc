package io.paysession.gateway.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A partner's web site on its own port of 127.0.0.1: another origin than the service's, as a shop's page is.
 * It serves fixed pages by path (plain JDK server, no part of the service).
 */
public final class PartnerSite implements AutoCloseable {

    private record Page(String contentType, String body) {
    }

    private final HttpServer server;
    private final Map<String, Page> pages = new ConcurrentHashMap<>();

    public PartnerSite() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 20);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    public String origin() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public PartnerSite serve(String path, String contentType, String body) {
        pages.put(path, new Page(contentType, body));
        return this;
    }

    private void handle(HttpExchange exchange) throws IOException {
        Page page = pages.get(exchange.getRequestURI().getPath());
        byte[] body = (page == null ? "not found" : page.body()).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", page == null ? "text/plain" : page.contentType());
        exchange.sendResponseHeaders(page == null ? 404 : 200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
