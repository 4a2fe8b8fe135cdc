package io.paysession.gateway.idempotency;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The signatures of the requests that make something new each time they run and can end in money moving
 * ({@code session/init/payment}, {@code session/init/payout}, {@code session/refund}), remembered as long as
 * idempotency keys ({@code request_signature}). The spec's signature covers the body alone, so a body captured once
 * could be sent again under a new idempotency key or without one: a second payment with the card in the body
 * (confirmed by a partner that confirms every {@code ready_to_confirm}), a second payout, a second partial refund. A
 * signed body of these methods therefore runs once: again only under the idempotency key it was first sent with
 * (and then the key answers), never without one or under another. Every other method keeps the contract as it was:
 * their replays are refused by the session's state ({@code session_wrong_state}) or make nothing of value, and their
 * bodies repeat by design ({@code session/create} with {@code {}}; {@code confirm}, {@code cancel}, {@code capture},
 * {@code status} with {@code {"session_id"}} alone, one after the other). See docs/idempotency.md, "Signatures".
 */
@Component
public class SignatureUses {

    /** Set by the signature filter on every request whose signature it verified. */
    public static final String ATTRIBUTE = SignatureUses.class.getName() + ".signed";

    /** A verified signature: whose, and the SHA-256 of its bytes. */
    public record Signed(String project, String signatureHash) {
        public static Signed of(String project, byte[] signature) {
            try {
                return new Signed(project,
                        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(signature)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        public void attachTo(HttpServletRequest request) {
            request.setAttribute(ATTRIBUTE, this);
        }
    }

    /** The operation a signature is remembered for: method and path without the API version (v1 and v2 are one). */
    public record Operation(String name) {
    }

    /** The earlier use of a signature for the operation: the key it came with, null without one. */
    record Use(String idempotencyKey) {
    }

    private static final Pattern REMEMBERED = Pattern.compile("/api/v[12]/session/(init/payment|init/payout|refund)");

    /** The live earlier use of the signature for the operation. */
    static final String EARLIER_USE = """
            select 1 from request_signature
            where project = ? and signature_hash = ? and operation = ? and expires_at > now()""";
    /** Records a use; the caller adds the condition under which it does. */
    static final String RECORD = """
            insert into request_signature (project, signature_hash, operation, idempotency_key, request_id,
                                           first_seen, expires_at)
            select ?, ?, ?, ?, ?, now(), now() + make_interval(secs => ?)""";

    private final JdbcTemplate jdbc;

    public SignatureUses(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The operation a request's signature is remembered for; empty for the methods whose bodies are not. */
    static Optional<Operation> remembered(String method, String path) {
        java.util.regex.Matcher matcher = REMEMBERED.matcher(path);
        return "POST".equals(method) && matcher.matches()
                ? Optional.of(new Operation("POST /api/v*/session/" + matcher.group(1)))
                : Optional.empty();
    }

    static Object[] earlierUseArguments(Signed signed, Operation operation) {
        return new Object[]{signed.project(), signed.signatureHash(), operation.name()};
    }

    static Object[] recordArguments(Signed signed, Operation operation, String idempotencyKey, String requestId,
                                    Duration lifetime) {
        return new Object[]{signed.project(), signed.signatureHash(), operation.name(), idempotencyKey, requestId,
                lifetime.toNanos() / 1e9};
    }

    /** Records the signature of a request without an idempotency key: true when this is its first use. */
    boolean claimWithoutKey(Signed signed, Operation operation, String requestId, Duration lifetime) {
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                return jdbc.update(RECORD + " where not exists (" + EARLIER_USE + ")",
                        concat(recordArguments(signed, operation, null, requestId, lifetime),
                                earlierUseArguments(signed, operation))) == 1;
            } catch (DuplicateKeyException e) {
                // a forgotten use still in its row, or a concurrent first use: clear the first and look again
                forgetExpired(signed);
            }
        }
        return false;
    }

    /** The live earlier use of the signature for the operation, if there is one. */
    Optional<Use> earlierUse(Signed signed, Operation operation) {
        return jdbc.query("""
                select idempotency_key from request_signature
                where project = ? and signature_hash = ? and operation = ? and expires_at > now()""",
                (row, index) -> new Use(row.getString("idempotency_key")), earlierUseArguments(signed, operation))
                .stream().findFirst();
    }

    /** Whether the earlier use allows this request: only under the same idempotency key. */
    static boolean allows(Use earlier, String idempotencyKey) {
        return idempotencyKey != null && idempotencyKey.equals(earlier.idempotencyKey());
    }

    static final String REFUSAL = "This signed body was already sent to this method; it is accepted again only with "
            + "the " + IdempotentEndpoints.HEADER + " it was first sent with, and a new request needs a body of its own "
            + "(an order reference in metadata, say)";

    /** Forgets the use of a request that failed in the service, so that a retry of the same body may run. */
    void release(Signed signed, Operation operation, String requestId) {
        jdbc.update("delete from request_signature where project = ? and signature_hash = ? and operation = ?"
                + " and request_id = ?", signed.project(), signed.signatureHash(), operation.name(), requestId);
    }

    void forgetExpired(Signed signed) {
        jdbc.update("delete from request_signature where project = ? and signature_hash = ? and expires_at <= now()",
                signed.project(), signed.signatureHash());
    }

    /** Deletes uses past their lifetime; the number deleted. */
    int purgeExpired() {
        return jdbc.update("delete from request_signature where expires_at <= now()");
    }

    static Object[] concat(Object[] first, Object[] second) {
        Object[] all = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
