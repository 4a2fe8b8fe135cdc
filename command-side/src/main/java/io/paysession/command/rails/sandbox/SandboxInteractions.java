package io.paysession.command.rails.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.SessionId;
import io.paysession.api.wire.PaymentJson;
import io.paysession.command.rails.RailOperation;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The payer actions the sandbox rails wait for, kept in the database so that a restart loses none. */
@Component
@ConditionalOnSandboxRails
public class SandboxInteractions {

    public enum State { OPEN, RESOLVING, APPROVED, DECLINED, CLOSED }

    public record Interaction(String id, RailOperation operation, InteractionKind kind, State state, Instant createdAt) {
    }

    private final JdbcTemplate jdbc;
    private final SandboxLinks links;
    private final Clock clock;
    private final ObjectMapper json = PaymentJson.newObjectMapper();
    private final SecureRandom random = new SecureRandom();

    public SandboxInteractions(JdbcTemplate jdbc, SandboxLinks links, Clock clock) {
        this.jdbc = jdbc;
        this.links = links;
        this.clock = clock;
    }

    /** Opens a payer action and says how the payer reaches it: a redirect, or a QR code for instant payments. */
    CustomerInteraction open(RailOperation operation, InteractionKind kind) {
        byte[] secret = new byte[20];
        random.nextBytes(secret);
        String id = HexFormat.of().formatHex(secret);
        jdbc.update("""
                        insert into sandbox_interaction (id, session_id, payment_id, kind, rail_order, state, created_at)
                        values (?, ?, ?, ?, cast(? as jsonb), 'OPEN', ?)""",
                id, operation.sessionId().value(), operation.paymentId().value(), kind.name(),
                write(operation.order()), Timestamp.from(clock.instant()));
        String url = links.interactionUrl(id);
        if (kind == InteractionKind.FASTER_PAYMENT) {
            return new CustomerInteraction.InformQr(url);
        }
        return new CustomerInteraction.Redirect(url, url, "GET", Map.of(), Map.of());
    }

    public Optional<Interaction> find(String id) {
        List<Interaction> found = jdbc.query("select * from sandbox_interaction where id = ?",
                (row, index) -> new Interaction(row.getString("id"),
                        new RailOperation(SessionId.of(row.getString("session_id")),
                                PaymentId.of(row.getString("payment_id")), read(row.getString("rail_order"))),
                        InteractionKind.valueOf(row.getString("kind")), State.valueOf(row.getString("state")),
                        row.getTimestamp("created_at").toInstant()),
                id);
        return found.stream().findFirst();
    }

    /** Takes an open interaction for resolving; false when it is not open (already resolved, or resolving). */
    boolean claim(String id) {
        return jdbc.update("update sandbox_interaction set state = 'RESOLVING' where id = ? and state = 'OPEN'", id) == 1;
    }

    void finish(String id, State state) {
        jdbc.update("update sandbox_interaction set state = ?, resolved_at = ? where id = ?", state.name(),
                Timestamp.from(clock.instant()), id);
    }

    void reopen(String id) {
        jdbc.update("update sandbox_interaction set state = 'OPEN' where id = ? and state = 'RESOLVING'", id);
    }

    private String write(RailOrder order) {
        try {
            return json.writeValueAsString(order);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private RailOrder read(String text) {
        try {
            return json.readValue(text, RailOrder.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
