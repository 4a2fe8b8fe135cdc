package io.paysession.gateway.dashboard;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The dashboard's sign-ins, in {@code dashboard_session}: a random cookie (256 bits) per signed-in browser, kept as
 * its SHA-256 only, with its CSRF token and an idle expiry renewed as the operator uses the dashboard, and at most
 * {@link #LONGEST} after the sign-in. In
 * PostgreSQL so that any node serves any signed-in browser and a sign-out ends it on every node.
 */
@Repository
public class DashboardSignIns {

    /** Signed out after this long without a page asked for. */
    public static final Duration IDLE = Duration.ofMinutes(30);
    /** Signed out this long after signing in, however busy: the cookie's own lifetime too. */
    public static final Duration LONGEST = Duration.ofHours(12);

    private static final SecureRandom RANDOM = new SecureRandom();

    private final JdbcTemplate jdbc;
    private final Clock clock;

    @Autowired
    public DashboardSignIns(JdbcTemplate jdbc) {
        this(jdbc, Clock.systemUTC());
    }

    DashboardSignIns(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** A signed-in browser: the cookie it holds and the CSRF token its forms must carry. */
    public record SignIn(String cookie, String csrfToken) {
        @Override
        public String toString() {
            return "SignIn[...]";
        }
    }

    public SignIn create() {
        Instant now = clock.instant();
        jdbc.update("delete from dashboard_session where expires_at < ?", Timestamp.from(now));
        SignIn signIn = new SignIn(random(), random());
        jdbc.update("insert into dashboard_session (cookie_hash, csrf_token, created_at, expires_at) values (?, ?, ?, ?)",
                hash(signIn.cookie()), signIn.csrfToken(), Timestamp.from(now), Timestamp.from(now.plus(IDLE)));
        return signIn;
    }

    /** The sign-in of a cookie, its idle expiry renewed; empty when unknown, expired or signed out. */
    public Optional<SignIn> find(String cookie) {
        if (cookie == null || !cookie.matches("[A-Za-z0-9_-]{43}")) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        List<String> csrf = jdbc.queryForList("update dashboard_session set expires_at = ? where cookie_hash = ? "
                + "and expires_at >= ? and created_at >= ? returning csrf_token", String.class,
                Timestamp.from(now.plus(IDLE)), hash(cookie), Timestamp.from(now), Timestamp.from(now.minus(LONGEST)));
        return csrf.stream().findFirst().map(token -> new SignIn(cookie, token));
    }

    public void delete(String cookie) {
        jdbc.update("delete from dashboard_session where cookie_hash = ?", hash(cookie));
    }

    /** Constant-time comparison of a form's CSRF token with the sign-in's. */
    public static boolean csrfMatches(SignIn signIn, String submitted) {
        return submitted != null && MessageDigest.isEqual(signIn.csrfToken().getBytes(StandardCharsets.US_ASCII),
                submitted.getBytes(StandardCharsets.US_ASCII));
    }

    private static String random() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String hash(String cookie) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(cookie.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
