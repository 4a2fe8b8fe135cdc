package io.paysession.command.rails.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.TransactionInfo;
import io.paysession.api.wire.PaymentJson;
import io.paysession.command.rails.CaptureOutcome;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.RefundOutcome;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the sandbox rails have done, by operation id, kept in the database as a real acquirer keeps its
 * ledger: the first answer given for an operation (to a call or to a query) binds it, and every later
 * call or query with that id gets the bound answer and moves no money. Decisions about one payment (or
 * payout) are serialized by a transaction-scoped advisory lock on its id, so two racing calls decide once,
 * and two racing refunds of one payment cannot together exceed what it paid.
 */
@Component
@ConditionalOnSandboxRails
public class SandboxLedger {

    enum Kind {
        AUTHORIZE("authorize"), CAPTURE("capture"), REFUND("refund"), PAYOUT("payout");

        private final String column;

        Kind(String column) {
            this.column = column;
        }
    }

    /** The answer bound to an operation, and whether this call bound it (the rail received it just now). */
    record Binding<T>(T answer, boolean fresh) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate ownTransaction;
    private final Clock clock;
    private final ObjectMapper json = PaymentJson.newObjectMapper();

    public SandboxLedger(JdbcTemplate jdbc, PlatformTransactionManager transactions, Clock clock) {
        this.jdbc = jdbc;
        this.ownTransaction = new TransactionTemplate(transactions);
        this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.clock = clock;
    }

    /**
     * The answer bound to ({@code kind}, {@code operationId}); when there is none, {@code decide} gives it
     * and it is bound, in one transaction under the lock of {@code paymentId}.
     */
    <T> Binding<T> bind(Kind kind, String operationId, String paymentId, Money amount, Class<T> type,
                        Supplier<T> decide) {
        return ownTransaction.execute(status -> {
            jdbc.queryForList("select pg_advisory_xact_lock(hashtext(?))", paymentId);
            Optional<T> bound = find(kind, operationId, type);
            if (bound.isPresent()) {
                return new Binding<>(bound.get(), false);
            }
            T answer = decide.get();
            jdbc.update("""
                            insert into sandbox_rail_ledger (kind, operation_id, payment_id, amount_minor, currency,
                                                             answer, created_at)
                            values (?, ?, ?, ?, ?, cast(? as jsonb), ?)""",
                    kind.column, operationId, paymentId, amount == null ? null : amount.minorUnits(),
                    amount == null ? null : amount.currencyCode(), write(answer), Timestamp.from(clock.instant()));
            return new Binding<>(answer, true);
        });
    }

    /** When the answer to ({@code kind}, {@code operationId}) was bound; empty when none is. */
    Optional<java.time.Instant> boundAt(Kind kind, String operationId) {
        return jdbc.queryForList("select created_at from sandbox_rail_ledger where kind = ? and operation_id = ?",
                java.sql.Timestamp.class, kind.column, operationId).stream().findFirst()
                .map(java.sql.Timestamp::toInstant);
    }

    <T> Optional<T> find(Kind kind, String operationId, Class<T> type) {
        List<String> answers = jdbc.queryForList(
                "select answer::text from sandbox_rail_ledger where kind = ? and operation_id = ?", String.class,
                kind.column, operationId);
        return answers.stream().findFirst().map(answer -> read(answer, type));
    }

    /**
     * Replaces a pending answer by the final one (the payer acted) and gives the answer now bound: the final
     * one, or the one bound before (a final answer is never replaced). {@code pendingOutcome} is the outcome
     * type of a pending answer.
     */
    <T> T settle(Kind kind, String operationId, T finalAnswer, String pendingOutcome, Class<T> type) {
        jdbc.update("""
                        update sandbox_rail_ledger set answer = cast(? as jsonb), settled_at = ?
                        where kind = ? and operation_id = ? and answer->>'outcome' = ?""",
                write(finalAnswer), Timestamp.from(clock.instant()), kind.column, operationId, pendingOutcome);
        return find(kind, operationId, type).orElse(finalAnswer);
    }

    /**
     * What the payment paid in minor units, as far as this ledger knows: the captured amount once captured,
     * the authorized amount of an approval; zero when it was declined, held and not captured, or waits for
     * the payer; empty when the ledger has no record of it. Call inside {@link #bind} of the same payment.
     */
    Optional<Long> paid(String paymentId) {
        List<Long> captured = amounts("capture", paymentId, "captured");
        if (!captured.isEmpty()) {
            return Optional.of(captured.get(0));
        }
        List<Long> approved = amounts("authorize", paymentId, "approved");
        if (!approved.isEmpty()) {
            return Optional.of(approved.get(0));
        }
        Integer authorizations = jdbc.queryForObject(
                "select count(*) from sandbox_rail_ledger where kind = 'authorize' and payment_id = ?",
                Integer.class, paymentId);
        return authorizations != null && authorizations > 0 ? Optional.of(0L) : Optional.empty();
    }

    /** The sum of the accepted refunds of a payment, in minor units. Call inside {@link #bind} of the payment. */
    long refunded(String paymentId) {
        Long sum = jdbc.queryForObject("""
                        select coalesce(sum(amount_minor), 0) from sandbox_rail_ledger
                        where kind = 'refund' and payment_id = ? and answer->>'outcome' = 'accepted'""",
                Long.class, paymentId);
        return sum == null ? 0 : sum;
    }

    /** A capture: binds a debit of {@code amount} of the hold (the rest is released). */
    CaptureOutcome capture(RailOperation operation, Money amount) {
        String payment = operation.paymentId().value();
        return bind(Kind.CAPTURE, payment, payment, amount, CaptureOutcome.class,
                () -> new CaptureOutcome.Captured(new TransactionInfo(null, null, null))).answer();
    }

    /**
     * A refund: declined when the issuer refuses it ({@code issuerRefusal}) or when the accepted refunds of the
     * payment would exceed what it paid; accepted otherwise. A payment this ledger has no record of (paid
     * before the ledger existed) counts as having paid its order's amount.
     */
    RefundOutcome refund(RailOperation operation, RefundId refundId, Money amount,
                         Supplier<Optional<ErrorDetails>> issuerRefusal) {
        String payment = operation.paymentId().value();
        return bind(Kind.REFUND, refundId.value(), payment, amount, RefundOutcome.class, () -> {
            Optional<ErrorDetails> refused = issuerRefusal.get();
            if (refused.isPresent()) {
                return new RefundOutcome.Declined(refused.get());
            }
            long paid = paid(payment).orElse(operation.order().amount().minorUnits());
            if (refunded(payment) + amount.minorUnits() > paid) {
                return new RefundOutcome.Declined(ErrorDetails.of(ErrorCode.REFUND_AMOUNT_TOO_LARGE,
                        "The refunds of the payment would exceed what it paid"));
            }
            return new RefundOutcome.Accepted();
        }).answer();
    }

    private List<Long> amounts(String kind, String paymentId, String outcome) {
        return jdbc.queryForList("""
                        select amount_minor from sandbox_rail_ledger
                        where kind = ? and payment_id = ? and answer->>'outcome' = ?""",
                Long.class, kind, paymentId, outcome);
    }

    private String write(Object answer) {
        try {
            return json.writeValueAsString(answer);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a sandbox answer cannot be written", e);
        }
    }

    private <T> T read(String answer, Class<T> type) {
        try {
            return json.readValue(answer, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a sandbox answer cannot be read", e);
        }
    }
}
