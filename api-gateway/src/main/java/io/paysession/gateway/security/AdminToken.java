package io.paysession.gateway.security;

import io.paysession.command.RefusedConfigurationException;
import io.paysession.gateway.infra.DataDirectory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The bearer token of the admin API: {@code PAYMENTS_ADMIN_TOKEN}, at least {@value #MINIMUM_LENGTH} characters.
 * When it is absent, the embedded default generates one on first start, keeps it in the data directory and
 * prints it at start-up; the production profile refuses to start instead, since a token written to a file and
 * a log is not a secret an operator controls.
 */
@Component
public class AdminToken {

    static final String FILE = "admin-token";
    /** 32 characters: 128 bits and more for a random hexadecimal or Base64 token. */
    static final int MINIMUM_LENGTH = 32;
    private static final String HOW = "Set PAYMENTS_ADMIN_TOKEN (payments.admin.token) to a random secret of at least "
            + MINIMUM_LENGTH + " characters, e.g. the output of: openssl rand -hex 32";

    private final String token;
    private final boolean generated;

    public AdminToken(@Value("${payments.admin.token:}") String configured, DataDirectory dataDirectory,
                      Environment environment) {
        if (configured != null && !configured.isBlank()) {
            this.token = configured.trim();
            this.generated = false;
        } else if (environment.acceptsProfiles(Profiles.of("production"))) {
            throw new RefusedConfigurationException(
                    "PAYMENTS_ADMIN_TOKEN is not set: the production profile does not generate an admin token.", HOW + ".");
        } else {
            this.token = dataDirectory.readOrCreate(FILE, AdminToken::newToken);
            this.generated = true;
        }
        if (token.length() < MINIMUM_LENGTH) {
            // the length only: the value is a secret, even a weak one
            throw new RefusedConfigurationException("PAYMENTS_ADMIN_TOKEN has " + token.length()
                    + " characters, fewer than the " + MINIMUM_LENGTH + " required.", HOW + ".");
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
