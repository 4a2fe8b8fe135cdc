package io.paysession.command.session;

import io.paysession.api.session.OperationState;
import io.paysession.api.session.RefundState;
import io.paysession.api.session.SessionStatus;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.paysession.api.session.OperationState.AWAITING_CAPTURE;
import static io.paysession.api.session.OperationState.AWAITING_CONFIRMATION;
import static io.paysession.api.session.OperationState.AWAITING_PAYER_ACTION;
import static io.paysession.api.session.OperationState.CAPTURING;
import static io.paysession.api.session.OperationState.ERROR;
import static io.paysession.api.session.OperationState.FAILED;
import static io.paysession.api.session.OperationState.IN_PROGRESS;
import static io.paysession.api.session.OperationState.OUTCOME_UNKNOWN;
import static io.paysession.api.session.OperationState.PROCESSING;
import static io.paysession.api.session.OperationState.SUCCEEDED;
import static io.paysession.api.session.SessionStatus.CREATED;

/**
 * Every legal transition of a session's operation (its payment or its payout), in one table that reads like the spec's "States and
 * transitions", and of each refund of a payment, in a table of its own (one machine per kind of transaction). It is the
 * one place that says what state follows: commands ask it whether their trigger is allowed (a trigger not listed for
 * the current state is refused with {@code session_wrong_state}), and the event sourcing handlers apply the state it
 * answers for the trigger their event records. The session's own status follows its payment (see
 * {@code SessionViewFold}); the only rows that look at it are those of a session without a payment. Each kind of
 * operation takes only the rows that concern it ({@link #paymentRows()}, {@link #payoutRows()}); the rows from no
 * operation are the session's own.
 */
final class SessionLifecycle {

    /** The payment column when the session has no payment. */
    static final OperationState NONE = null;
    /** The session column of rows that hold whatever the session's status. */
    private static final SessionStatus ANY = null;

    enum Trigger {
        START_PAYMENT("session/start/payment"),
        START_PAYOUT("session/start/payout"),
        PRECHECK_PASSED("the rail's pre-check"),
        PRECHECK_REFUSED("the rail's pre-check"),
        CONFIRM("session/confirm"),
        CONFIRM_AUTOMATICALLY("the automatic confirmation of a recipient verification"),
        CONFIRM_TIMEOUT("the confirmation time limit"),
        CANCEL("session/cancel"),
        PAYER_ACTION_REQUIRED("the rail's request for a payer action"),
        PAYER_ACTION_TIMEOUT("the payer's time limit"),
        OUTCOME_UNKNOWN("the rail's time-out"),
        /** Only asks the rail again: the operation stays in its state and stage, so its deadlines still apply. */
        OUTCOME_QUERY_DUE("the next query of the rail"),
        /** The outcome stayed unknown past the first series of queries: shown failed, the session in error. */
        OUTCOME_OVERDUE("the last query of the first series"),
        APPROVED("the rail's approval"),
        HELD("the rail's authorization"),
        DECLINED("the rail's decline"),
        CAPTURE("session/capture"),
        CAPTURE_COMPLETED("the rail's capture"),
        CAPTURE_OUTCOME_UNKNOWN("the rail's lost answer to a capture"),
        CAPTURE_TIMEOUT("the capture time limit"),
        REFUND("session/refund");

        private final String description;

        Trigger(String description) {
            this.description = description;
        }

        String description() {
            return description;
        }

        /** Triggers only a payout meets: a payment's rows and tests of payments leave them out. */
        boolean isPayoutOnly() {
            return this == START_PAYOUT || this == CONFIRM_AUTOMATICALLY;
        }

        /** Triggers only a payment meets: a payout is never held, captured or refunded, nor waits for its payer. */
        boolean isPaymentOnly() {
            return this == START_PAYMENT || this == PAYER_ACTION_REQUIRED || this == PAYER_ACTION_TIMEOUT
                    || this == HELD || this == CAPTURE || this == CAPTURE_COMPLETED || this == CAPTURE_OUTCOME_UNKNOWN
                    || this == CAPTURE_TIMEOUT || this == REFUND;
        }

        /**
         * Whether the operation stays in its stage: every other transition, even back into the same state,
         * starts a new stage, and deadlines of earlier stages no longer apply ({@link StageDeadline}).
         */
        boolean keepsStage() {
            return this == OUTCOME_QUERY_DUE;
        }
    }

    /** One row; {@code session} is {@code null} for rows that hold whatever the session's status. */
    record Rule(SessionStatus session, OperationState from, Trigger trigger, OperationState to) {
    }

    /** What the table answers for a trigger: the row that allows it, or a refusal. */
    sealed interface Transition permits Allowed, Refused {
        default boolean allowed() {
            return this instanceof Allowed;
        }
    }

    /** The trigger is allowed by {@code rule}; the operation is then in {@link #to()} ({@link #NONE}: still none). */
    record Allowed(Rule rule) implements Transition {
        OperationState to() {
            return rule.to();
        }
    }

    /** No row allows {@code trigger} for a session in {@code session} whose operation is in {@code from}. */
    record Refused(SessionStatus session, OperationState from, Trigger trigger) implements Transition {
        /** Why, as {@code session_wrong_state} tells the partner. */
        String description() {
            return trigger.description() + " is not allowed while the session is " + session.wireName()
                    + (from == null ? "" : " and its payment is " + from.wireStatus());
        }
    }

    private static final List<Rule> TABLE = List.of(
            //   session  payment before          trigger                         payment after
            rule(CREATED, NONE,                   Trigger.START_PAYMENT,          IN_PROGRESS),
            rule(CREATED, NONE,                   Trigger.START_PAYOUT,           IN_PROGRESS),
            rule(CREATED, NONE,                   Trigger.CANCEL,                 NONE),
            rule(ANY,     IN_PROGRESS,            Trigger.PRECHECK_PASSED,        AWAITING_CONFIRMATION),
            rule(ANY,     IN_PROGRESS,            Trigger.PRECHECK_REFUSED,       FAILED),
            rule(ANY,     IN_PROGRESS,            Trigger.CONFIRM_AUTOMATICALLY,  PROCESSING),
            rule(ANY,     AWAITING_CONFIRMATION,  Trigger.CONFIRM,                PROCESSING),
            rule(ANY,     AWAITING_CONFIRMATION,  Trigger.CANCEL,                 FAILED),
            rule(ANY,     AWAITING_CONFIRMATION,  Trigger.CONFIRM_TIMEOUT,        FAILED),
            rule(ANY,     PROCESSING,             Trigger.PAYER_ACTION_REQUIRED,  AWAITING_PAYER_ACTION),
            rule(ANY,     PROCESSING,             Trigger.OUTCOME_UNKNOWN,        OUTCOME_UNKNOWN),
            rule(ANY,     PROCESSING,             Trigger.APPROVED,               SUCCEEDED),
            rule(ANY,     PROCESSING,             Trigger.HELD,                   AWAITING_CAPTURE),
            rule(ANY,     PROCESSING,             Trigger.DECLINED,               FAILED),
            rule(ANY,     AWAITING_PAYER_ACTION,  Trigger.APPROVED,               SUCCEEDED),
            rule(ANY,     AWAITING_PAYER_ACTION,  Trigger.HELD,                   AWAITING_CAPTURE),
            rule(ANY,     AWAITING_PAYER_ACTION,  Trigger.DECLINED,               FAILED),
            rule(ANY,     AWAITING_PAYER_ACTION,  Trigger.PAYER_ACTION_TIMEOUT,   FAILED),
            rule(ANY,     OUTCOME_UNKNOWN,        Trigger.OUTCOME_QUERY_DUE,      OUTCOME_UNKNOWN),
            rule(ANY,     OUTCOME_UNKNOWN,        Trigger.OUTCOME_UNKNOWN,        OUTCOME_UNKNOWN),
            rule(ANY,     OUTCOME_UNKNOWN,        Trigger.PAYER_ACTION_REQUIRED,  AWAITING_PAYER_ACTION),
            rule(ANY,     OUTCOME_UNKNOWN,        Trigger.APPROVED,               SUCCEEDED),
            rule(ANY,     OUTCOME_UNKNOWN,        Trigger.HELD,                   AWAITING_CAPTURE),
            rule(ANY,     OUTCOME_UNKNOWN,        Trigger.DECLINED,               FAILED),
            rule(ANY,     OUTCOME_UNKNOWN,        Trigger.OUTCOME_OVERDUE,        ERROR),
            rule(ANY,     ERROR,                  Trigger.OUTCOME_QUERY_DUE,      ERROR),
            rule(ANY,     ERROR,                  Trigger.OUTCOME_UNKNOWN,        ERROR),
            rule(ANY,     ERROR,                  Trigger.PAYER_ACTION_REQUIRED,  AWAITING_PAYER_ACTION),
            rule(ANY,     ERROR,                  Trigger.APPROVED,               SUCCEEDED),
            rule(ANY,     ERROR,                  Trigger.HELD,                   AWAITING_CAPTURE),
            rule(ANY,     ERROR,                  Trigger.DECLINED,               FAILED),
            rule(ANY,     AWAITING_CAPTURE,       Trigger.CAPTURE,                CAPTURING),
            rule(ANY,     AWAITING_CAPTURE,       Trigger.CANCEL,                 FAILED),
            rule(ANY,     AWAITING_CAPTURE,       Trigger.CAPTURE_TIMEOUT,        FAILED),
            rule(ANY,     CAPTURING,              Trigger.CAPTURE_COMPLETED,      SUCCEEDED),
            rule(ANY,     CAPTURING,              Trigger.CAPTURE_OUTCOME_UNKNOWN, CAPTURING),
            rule(ANY,     CAPTURING,              Trigger.OUTCOME_QUERY_DUE,      CAPTURING),
            rule(ANY,     SUCCEEDED,              Trigger.REFUND,                 SUCCEEDED)
    );

    /** States only a payment reaches. */
    private static final Set<OperationState> PAYMENT_ONLY_STATES =
            EnumSet.of(AWAITING_PAYER_ACTION, AWAITING_CAPTURE, CAPTURING);

    /**
     * The rows that concern a payment under way ({@link Payment}): every row from a state of an operation, but the
     * payout's own. The rows from no operation are the session's.
     */
    private static final List<Rule> PAYMENT_ROWS = TABLE.stream()
            .filter(rule -> rule.from != NONE && !rule.trigger.isPayoutOnly())
            .toList();

    /**
     * The rows that concern a payout under way ({@link Payout}): those of neither a payment's trigger nor a state
     * only a payment reaches.
     */
    private static final List<Rule> PAYOUT_ROWS = TABLE.stream()
            .filter(rule -> rule.from != NONE && !rule.trigger.isPaymentOnly()
                    && !PAYMENT_ONLY_STATES.contains(rule.from) && !PAYMENT_ONLY_STATES.contains(rule.to))
            .toList();

    /** What happens to a refund of a succeeded payment. Its request is allowed by the payment's row {@code REFUND}. */
    enum RefundTrigger {
        REQUEST("session/refund"),
        OUTCOME_UNKNOWN("the rail's lost answer to a refund"),
        OUTCOME_QUERY_DUE("the next query of the rail about a refund"),
        OUTCOME_OVERDUE("the last query of the first series about a refund"),
        ACCEPTED("the rail's acceptance of a refund"),
        DECLINED("the rail's decline of a refund");

        private final String description;

        RefundTrigger(String description) {
            this.description = description;
        }

        String description() {
            return description;
        }
    }

    /** One row of a refund's table; {@code from} is {@link #NO_REFUND} for a refund not yet requested. */
    record RefundRule(RefundState from, RefundTrigger trigger, RefundState to) {
    }

    /** The refund column when the refund has not been requested. */
    static final RefundState NO_REFUND = null;

    private static final List<RefundRule> REFUND_TABLE = List.of(
            //             refund before          trigger                          refund after
            new RefundRule(NO_REFUND,             RefundTrigger.REQUEST,           RefundState.IN_PROGRESS),
            new RefundRule(RefundState.IN_PROGRESS, RefundTrigger.OUTCOME_UNKNOWN,   RefundState.IN_PROGRESS),
            new RefundRule(RefundState.IN_PROGRESS, RefundTrigger.OUTCOME_QUERY_DUE, RefundState.IN_PROGRESS),
            new RefundRule(RefundState.IN_PROGRESS, RefundTrigger.ACCEPTED,          RefundState.ACCEPTED),
            new RefundRule(RefundState.IN_PROGRESS, RefundTrigger.DECLINED,          RefundState.DECLINED),
            new RefundRule(RefundState.IN_PROGRESS, RefundTrigger.OUTCOME_OVERDUE,   RefundState.ERROR),
            new RefundRule(RefundState.ERROR,     RefundTrigger.OUTCOME_UNKNOWN,   RefundState.ERROR),
            new RefundRule(RefundState.ERROR,     RefundTrigger.OUTCOME_QUERY_DUE, RefundState.ERROR),
            new RefundRule(RefundState.ERROR,     RefundTrigger.ACCEPTED,          RefundState.ACCEPTED),
            new RefundRule(RefundState.ERROR,     RefundTrigger.DECLINED,          RefundState.DECLINED)
    );

    private SessionLifecycle() {
    }

    private static Rule rule(SessionStatus session, OperationState from, Trigger trigger, OperationState to) {
        return new Rule(session, from, trigger, to);
    }

    /**
     * Whether {@code trigger} is allowed for a session in {@code session} whose operation is in {@code operation}
     * ({@link #NONE}: the session has none yet): {@link Allowed} with the row, whose {@code to} is the operation's
     * state afterwards, or {@link Refused}.
     */
    static Transition next(SessionStatus session, OperationState operation, Trigger trigger) {
        return next(TABLE, session, operation, trigger);
    }

    /** As {@link #next(SessionStatus, OperationState, Trigger)}, by {@code rows} only (an operation's rows). */
    static Transition next(List<Rule> rows, SessionStatus session, OperationState operation, Trigger trigger) {
        return rows.stream()
                .filter(rule -> rule.trigger == trigger && rule.from == operation
                        && (rule.session == ANY || rule.session == session))
                .<Transition>map(Allowed::new)
                .findFirst()
                .orElseGet(() -> new Refused(session, operation, trigger));
    }

    /** A refund's state after {@code trigger}, or empty when a refund in {@code refund} does not allow it. */
    static Optional<RefundState> next(RefundState refund, RefundTrigger trigger) {
        return REFUND_TABLE.stream()
                .filter(rule -> rule.trigger == trigger && rule.from == refund)
                .map(RefundRule::to)
                .findFirst();
    }

    /** The rows in the table's order, for tests that walk the table. */
    static List<Rule> rules() {
        return TABLE;
    }

    /** The rows that concern a payment under way. */
    static List<Rule> paymentRows() {
        return PAYMENT_ROWS;
    }

    /** The rows that concern a payout under way. */
    static List<Rule> payoutRows() {
        return PAYOUT_ROWS;
    }

    /** The rows of a refund's table, for tests that walk it. */
    static List<RefundRule> refundRules() {
        return REFUND_TABLE;
    }

    /** Every (payment state, trigger) pair the table allows, for tests that walk the table. */
    static List<OperationState> statesAllowing(Trigger trigger) {
        return TABLE.stream().filter(rule -> rule.trigger == trigger && rule.from != NONE).map(Rule::from).toList();
    }

    /** Whether {@code to} can follow {@code from} by some trigger; for property tests of event streams. */
    static boolean isLegal(OperationState from, OperationState to) {
        return TABLE.stream().anyMatch(rule -> rule.from == from && rule.to == to);
    }
}
