package io.paysession.gateway.security;

import io.paysession.gateway.infra.DataDirectory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The bearer token of the admin API: {@code PAYMENTS_ADMIN_TOKEN}, or, when absent, one generated on
 * first start and kept in the data directory (and printed at start-up).
 */
@Component
public class AdminToken {

    static final String FILE = "admin-token";

    private final String token;
    private final boolean generated;

    public AdminToken(@Value("${payments.admin.token:}") String configured, DataDirectory dataDirectory) {
        if (configured != null && !configured.isBlank()) {
            this.token = configured.trim();
            this.generated = false;
        } else {
            this.token = dataDirectory.readOrCreate(FILE, AdminToken::newToken);
            this.generated = true;
        }
        if (token.length() < 16) {
            throw new IllegalStateException("PAYMENTS_ADMIN_TOKEN must have at least 16 characters");
        }
    }

    private static String newToken() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Constant-time comparison of an {@code Authorization} header value with {@code Bearer <token>}. */
    public boolean accepts(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.startsWith("Bearer ")) {
            return false;
        }
        byte[] given = authorizationHeader.substring("Bearer ".length()).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, token.getBytes(StandardCharsets.UTF_8));
    }

    public String value() {
        return token;
    }

    public boolean wasGenerated() {
        return generated;
    }
}
