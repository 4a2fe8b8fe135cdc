package io.paysession.command.ids;

import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.SessionId;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Ids from database sequences: unique across every node sharing the database, decimal as the wire
 * format wants them (decisions.md section 1). A number taken by a request that then fails is simply
 * never used.
 */
@Component
public class IdGenerator {

    private final JdbcTemplate jdbc;

    public IdGenerator(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public SessionId nextSessionId() {
        return SessionId.of(next("session_id_seq"));
    }

    public PaymentId nextPaymentId() {
        return PaymentId.of(next("payment_id_seq"));
    }

    public PayoutId nextPayoutId() {
        return PayoutId.of(next("payout_id_seq"));
    }

    public RefundId nextRefundId() {
        return RefundId.of(next("refund_id_seq"));
    }

    private long next(String sequence) {
        Long value = jdbc.queryForObject("select nextval('" + sequence + "')", Long.class);
        if (value == null) {
            throw new IllegalStateException("sequence " + sequence + " returned nothing");
        }
        return value;
    }
}
