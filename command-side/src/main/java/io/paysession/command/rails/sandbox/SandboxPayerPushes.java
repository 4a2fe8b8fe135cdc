package io.paysession.command.rails.sandbox;

import io.paysession.api.error.PaymentsException;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.SessionId;
import io.paysession.command.rails.PayerPushes;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The sandbox QR-code application's notifications: a push reaches the payer as a line on the payment's hosted page
 * ("a notification was sent to ••••4567"), after the rails' latency, as a provider's would. A payment with no open
 * QR-application page has nobody to notify: the push fails with {@code session_wrong_state}.
 */
@Component
@ConditionalOnSandboxRails
public class SandboxPayerPushes implements PayerPushes {

    private final JdbcTemplate jdbc;
    private final SandboxScheduler scheduler;
    private final Clock clock;

    public SandboxPayerPushes(JdbcTemplate jdbc, SandboxScheduler scheduler, Clock clock) {
        this.jdbc = jdbc;
        this.scheduler = scheduler;
        this.clock = clock;
    }

    @Override
    public CompletionStage<Void> push(SessionId session, PaymentId payment, String phone) {
        return scheduler.later(() -> {
            List<String> pages = jdbc.queryForList("""
                            select id from sandbox_interaction
                            where payment_id = ? and session_id = ? and kind = ? and state = 'OPEN'""",
                    String.class, payment.value(), session.value(), InteractionKind.QR_APP.name());
            if (pages.isEmpty()) {
                throw PaymentsException.wrongState("The payment waits on no QR application page");
            }
            jdbc.update("insert into sandbox_payer_push (interaction_id, phone_last4, sent_at) values (?, ?, ?)",
                    pages.get(0), phone.substring(phone.length() - 4), Timestamp.from(clock.instant()));
            return null;
        });
    }

    /** The notifications sent about the payment of a hosted page, oldest first. */
    public List<Sent> sentFor(String interactionId) {
        return jdbc.query("select phone_last4, sent_at from sandbox_payer_push where interaction_id = ? order by id",
                (row, index) -> new Sent(row.getString("phone_last4"), row.getTimestamp("sent_at").toInstant()),
                interactionId);
    }

    /** A notification as the page shows it. */
    public record Sent(String phoneLast4, Instant at) {
    }
}
