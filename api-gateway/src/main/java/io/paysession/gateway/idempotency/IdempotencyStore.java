package io.paysession.gateway.idempotency;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@code idempotency_key} and {@code idempotency_decision} tables. Every change of a key is one statement
 * conditioned on the key's state and owner, so that two nodes deciding at once never both win. Times are the
 * database's ({@code now()}), the one clock every node shares.
 */
@Component
public class IdempotencyStore {

    /** A key as stored, with whether its lease and its lifetime have run out by the database's clock. */
    public record KeyRecord(String project, String key, String requestHash, String hashKeyId, String endpoint,
                            boolean completed, String ownerRequestId, boolean leaseExpired, String sessionId,
                            Integer responseStatus, String responseContentType, byte[] responseBody,
                            Instant createdAt, Instant completedAt, Instant expiresAt, boolean expired) {
    }

    public record DecisionRecord(String project, String key, String decision, String requestId,
                                 String originalRequestId, String endpoint, String sessionId, Integer responseStatus,
                                 Instant decidedAt) {
    }

    private static final RowMapper<KeyRecord> KEY_ROW = IdempotencyStore::keyRecord;

    private final JdbcTemplate jdbc;

    public IdempotencyStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** What a claim found: whether the signature was used before (then nothing was claimed), and whether the key is now the request's. */
    public record Claim(boolean signatureUsed, boolean keyClaimed) {
    }

    /** Inserts a key as running, or takes over one whose lifetime is over; the caller adds the condition. */
    private static final String CLAIM_KEY = """
            insert into idempotency_key (project, idempotency_key, request_hash, hash_key_id, endpoint, state,
                                         owner_request_id, lease_until, created_at, expires_at)
            select ?, ?, ?, ?, ?, 'running', ?, now() + make_interval(secs => ?), now(), now() + make_interval(secs => ?)
            %s
            on conflict (project, idempotency_key) do update set
                request_hash = excluded.request_hash, hash_key_id = excluded.hash_key_id,
                endpoint = excluded.endpoint, state = 'running', owner_request_id = excluded.owner_request_id,
                lease_until = excluded.lease_until, session_id = null, response_status = null,
                response_content_type = null, response_body = null, created_at = excluded.created_at,
                completed_at = null, expires_at = excluded.expires_at
            where idempotency_key.expires_at <= now()
            returning owner_request_id""";

    /**
     * Claims a new key, or a key whose lifetime is over, for request {@code requestId}: true when this request
     * now owns it. An existing live key is left as it is.
     */
    public boolean claim(String project, String key, String requestHash, String hashKeyId, String endpoint,
                         String requestId, Duration lease, Duration lifetime) {
        List<String> owner = jdbc.queryForList(CLAIM_KEY.formatted(""), String.class,
                project, key, requestHash, hashKeyId, endpoint, requestId, seconds(lease), seconds(lifetime));
        return owner.size() == 1;
    }

    /**
     * {@link #claim}, and in the same statement the request's signature: the key is claimed only if the signature
     * has no earlier use that forbids this one ({@link SignatureUses}), and the signature is recorded only if the
     * key is claimed, so a refused or answered request leaves no use behind. One round trip and one commit for
     * both. A {@link org.springframework.dao.DuplicateKeyException} means a concurrent first use of the signature
     * (or a forgotten one still in its row); nothing was claimed.
     */
    public Claim claim(String project, String key, String requestHash, String hashKeyId, String endpoint,
                       String requestId, Duration lease, Duration lifetime, SignatureUses.Signed signed,
                       SignatureUses.Operation operation) {
        String sql = "with earlier as (" + SignatureUses.EARLIER_USE + "),\n"
                + "claimed as (" + CLAIM_KEY.formatted("where not exists (select 1 from earlier)") + "),\n"
                + "recorded as (" + SignatureUses.RECORD + " where exists (select 1 from claimed) returning 1)\n"
                + "select exists (select 1 from earlier) as signature_used, exists (select 1 from claimed) as key_claimed";
        Object[] arguments = SignatureUses.concat(SignatureUses.concat(
                SignatureUses.earlierUseArguments(signed, operation),
                new Object[]{project, key, requestHash, hashKeyId, endpoint, requestId, seconds(lease),
                        seconds(lifetime)}),
                SignatureUses.recordArguments(signed, operation, key, requestId, lifetime));
        return jdbc.queryForObject(sql, (row, index) -> new Claim(row.getBoolean("signature_used"),
                row.getBoolean("key_claimed")), arguments);
    }

    public Optional<KeyRecord> find(String project, String key) {
        return jdbc.query("""
                select *, lease_until <= now() as lease_expired, expires_at <= now() as expired
                from idempotency_key where project = ? and idempotency_key = ?""", KEY_ROW, project, key)
                .stream().findFirst();
    }

    /** Takes over a running key whose owner's lease ran out; false when another request was quicker. */
    public boolean takeOver(String project, String key, String deadOwner, String requestId, Duration lease) {
        return jdbc.update("""
                update idempotency_key set owner_request_id = ?, lease_until = now() + make_interval(secs => ?)
                where project = ? and idempotency_key = ? and state = 'running' and owner_request_id = ?
                  and lease_until <= now() and expires_at > now()""",
                requestId, seconds(lease), project, key, deadOwner) == 1;
    }

    /**
     * Notes the session the owning request works on, before its command is sent; false when the key is no longer
     * this request's (another took it over while this one was held up).
     */
    public boolean attachSession(String project, String key, String owner, String sessionId) {
        return jdbc.update("""
                update idempotency_key set session_id = ?
                where project = ? and idempotency_key = ? and owner_request_id = ? and state = 'running'""",
                sessionId, project, key, owner) == 1;
    }

    /**
     * Whether request {@code owner} still holds the key, locking the key's row until the caller's transaction
     * ends: run inside a command's transaction, no other request can take the key over before that transaction
     * has committed its events (or rolled back).
     */
    public boolean holds(String project, String key, String owner) {
        return !jdbc.queryForList("""
                select 1 from idempotency_key
                where project = ? and idempotency_key = ? and owner_request_id = ? and state = 'running'
                for update""", Integer.class, project, key, owner).isEmpty();
    }

    /**
     * Extends the leases of the running keys of these claims, in one statement; the number renewed. A key whose
     * row is locked by its own command's transaction is skipped this time: while that lock is held no other request
     * can take it over, and renewing it would wait for the command.
     */
    int renew(List<IdempotencyClaim> claims, Duration lease) {
        String[] projects = claims.stream().map(claim -> claim.project).toArray(String[]::new);
        String[] keys = claims.stream().map(claim -> claim.key).toArray(String[]::new);
        String[] owners = claims.stream().map(claim -> claim.requestId).toArray(String[]::new);
        return jdbc.update("""
                update idempotency_key set lease_until = now() + make_interval(secs => ?)
                where (project, idempotency_key) in (
                    select project, idempotency_key from idempotency_key
                    where (project, idempotency_key, owner_request_id) in (
                              select * from unnest(?::varchar[], ?::varchar[], ?::varchar[]))
                      and state = 'running'
                    for update skip locked)""", statement -> {
            statement.setDouble(1, seconds(lease));
            statement.setArray(2, statement.getConnection().createArrayOf("varchar", projects));
            statement.setArray(3, statement.getConnection().createArrayOf("varchar", keys));
            statement.setArray(4, statement.getConnection().createArrayOf("varchar", owners));
        });
    }

    /** Keeps the owner's answer with the key; false when the key is no longer this request's. */
    public boolean complete(String project, String key, String owner, int status, String contentType, byte[] body) {
        return jdbc.update("""
                update idempotency_key set state = 'completed', response_status = ?, response_content_type = ?,
                                           response_body = ?, completed_at = now()
                where project = ? and idempotency_key = ? and owner_request_id = ? and state = 'running'""",
                status, contentType, body, project, key, owner) == 1;
    }

    /**
     * Gives the key up at once after a failure of the service itself: the next request with the key looks for
     * this one's events and either rebuilds its answer or runs.
     */
    public void abandon(String project, String key, String owner) {
        jdbc.update("""
                update idempotency_key set lease_until = now()
                where project = ? and idempotency_key = ? and owner_request_id = ? and state = 'running'""",
                project, key, owner);
    }

    public void record(String project, String key, IdempotencyDecision decision, String requestId,
                       String originalRequestId, String endpoint, String sessionId, Integer responseStatus) {
        jdbc.update("""
                insert into idempotency_decision (project, idempotency_key, decision, request_id, original_request_id,
                                                  endpoint, session_id, response_status, decided_at)
                values (?, ?, ?, ?, ?, ?, ?, ?, now())""",
                project, key, decision.wireName(), requestId, originalRequestId, endpoint, sessionId, responseStatus);
    }

    public List<DecisionRecord> decisionsOfKey(String project, String key) {
        return jdbc.query("select * from idempotency_decision where project = ? and idempotency_key = ? order by id",
                IdempotencyStore::decisionRecord, project, key);
    }

    public List<DecisionRecord> decisionsOfSession(String sessionId) {
        return jdbc.query("select * from idempotency_decision where session_id = ? order by id",
                IdempotencyStore::decisionRecord, sessionId);
    }

    /** Deletes keys whose lifetime is over; the number deleted. */
    public int purgeExpired() {
        return jdbc.update("delete from idempotency_key where expires_at <= now()");
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    private static KeyRecord keyRecord(ResultSet row, int index) throws SQLException {
        Integer status = (Integer) row.getObject("response_status");
        return new KeyRecord(row.getString("project"), row.getString("idempotency_key"),
                row.getString("request_hash"), row.getString("hash_key_id"), row.getString("endpoint"),
                "completed".equals(row.getString("state")), row.getString("owner_request_id"),
                row.getBoolean("lease_expired"), row.getString("session_id"), status,
                row.getString("response_content_type"), row.getBytes("response_body"),
                instant(row.getTimestamp("created_at")), instant(row.getTimestamp("completed_at")),
                instant(row.getTimestamp("expires_at")), row.getBoolean("expired"));
    }

    private static DecisionRecord decisionRecord(ResultSet row, int index) throws SQLException {
        return new DecisionRecord(row.getString("project"), row.getString("idempotency_key"),
                row.getString("decision"), row.getString("request_id"), row.getString("original_request_id"),
                row.getString("endpoint"), row.getString("session_id"), (Integer) row.getObject("response_status"),
                instant(row.getTimestamp("decided_at")));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
