package io.paysession.command.vault;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Public tokens for the card-tokenizer widget (decisions.md section 6): 64 hex characters, valid 24 hours,
 * good for one tokenization. They stand for a project in a payer's browser, where no signed request can
 * be made. The table keeps their SHA-256 only: the database's index comparison stops at the first differing
 * character, so a lookup by the token itself would time how much of a guess is right; a lookup by its hash
 * tells a guesser only about hashes, which lead nowhere.
 */
@Component
public class PublicTokens {

    static final Duration LIFETIME = Duration.ofHours(24);

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public PublicTokens(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    public String issue(String project, String locale) {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String token = HexFormat.of().formatHex(secret);
        Instant now = clock.instant();
        jdbc.update("insert into public_token (token, project, locale, created_at, expires_at) values (?, ?, ?, ?, ?)",
                sha256(token), project, locale, Timestamp.from(now), Timestamp.from(now.plus(LIFETIME)));
        return token;
    }

    /**
     * The project a live token stands for, without using it: a request can be checked before the token is
     * spent on it, so that a mistyped card number does not cost the payer the token.
     */
    public Optional<String> projectOf(String token) {
        return jdbc.query("select project from public_token where token = ? and used_at is null and expires_at > ?"
                        + " and kind = 'tokenize'",
                (row, index) -> row.getString("project"), sha256(token), Timestamp.from(clock.instant())).stream().findFirst();
    }

    /**
     * What a partner may know of a token it issued ({@code token/info}): when it was issued, until when it lives,
     * and whether it was used. Empty when unknown.
     */
    public Optional<Description> describe(String token) {
        return jdbc.query("select project, created_at, expires_at, used_at from public_token where token = ?",
                (row, index) -> new Description(row.getString("project"), row.getTimestamp("created_at").toInstant(),
                        row.getTimestamp("expires_at").toInstant(),
                        row.getTimestamp("used_at") == null ? null : row.getTimestamp("used_at").toInstant()),
                sha256(token)).stream().findFirst();
    }

    /** A public token as {@link #describe} tells it; {@code usedAt} is null while unused. */
    public record Description(String project, Instant createdAt, Instant expiresAt, Instant usedAt) {

        /** Usable at {@code now}: not used and not expired. */
        public boolean activeAt(Instant now) {
            return usedAt == null && expiresAt.isAfter(now);
        }

        /** When it stopped being usable: its use, or its expiry once passed; null while active. */
        public Instant finishedAt(Instant now) {
            if (usedAt != null) {
                return usedAt;
            }
            return expiresAt.isAfter(now) ? null : expiresAt;
        }
    }

    /** Uses the token once: the project it stands for, or empty when it is unknown, expired or already used. */
    public Optional<String> use(String token) {
        return jdbc.query("""
                        update public_token set used_at = ? where token = ? and used_at is null and expires_at > ?
                        and kind = 'tokenize' returning project""",
                (row, index) -> row.getString("project"),
                Timestamp.from(clock.instant()), sha256(token), Timestamp.from(clock.instant())).stream().findFirst();
    }

    /**
     * A token of a session's widget ({@code kind}) for {@code sessionId} of {@code project}, 24 hours, good for one
     * operation; {@code settings} what the partner asked the form to do (a JSON object, no card data).
     */
    public String issueForSession(String project, String kind, String sessionId, String settings) {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String token = HexFormat.of().formatHex(secret);
        Instant now = clock.instant();
        jdbc.update("""
                        insert into public_token (token, project, locale, created_at, expires_at, kind, session_id, settings)
                        values (?, ?, 'en', ?, ?, ?, ?, cast(? as jsonb))""",
                sha256(token), project, Timestamp.from(now), Timestamp.from(now.plus(LIFETIME)), kind, sessionId,
                settings);
        return token;
    }

    /** A live (not expired) token of a session's widget, used or not; empty when unknown, expired or of another kind. */
    public Optional<SessionGrant> sessionGrant(String token, String kind) {
        return jdbc.query("""
                        select project, session_id, settings::text, used_at from public_token
                        where token = ? and kind = ? and expires_at > ?""",
                (row, index) -> new SessionGrant(row.getString("project"), row.getString("session_id"),
                        row.getString("settings"), row.getTimestamp("used_at") != null),
                sha256(token), kind, Timestamp.from(clock.instant())).stream().findFirst();
    }

    /** Uses a session widget's token for its one operation; false when it was used already (or is dead). */
    public boolean useForSession(String token, String kind) {
        return jdbc.update("""
                        update public_token set used_at = ? where token = ? and kind = ? and used_at is null
                        and expires_at > ?""",
                Timestamp.from(clock.instant()), sha256(token), kind, Timestamp.from(clock.instant())) == 1;
    }

    /** The operation a used token was spent on was refused before anything started: the token may be used again. */
    public void giveBack(String token, String kind) {
        jdbc.update("update public_token set used_at = null where token = ? and kind = ?", sha256(token), kind);
    }

    /** What a session widget's token stands for; {@code settings} as the partner gave them (JSON text). */
    public record SessionGrant(String project, String sessionId, String settings, boolean used) {
    }

    static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
