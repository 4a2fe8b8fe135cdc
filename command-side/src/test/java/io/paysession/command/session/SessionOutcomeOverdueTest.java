package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.PaymentOutcomeOverdueEvent;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RecordRefundOutcomeUnknownCommand;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundOutcomeOverdueEvent;
import io.paysession.api.session.RefundOutcomeQueryRequestedEvent;
import io.paysession.api.session.RefundOutcomeUnknownEvent;
import io.paysession.api.session.RefundSessionCommand;
import org.axonframework.test.matchers.Matchers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.axonframework.test.matchers.Matchers.andNoMore;
import static org.axonframework.test.matchers.Matchers.exactSequenceOf;
import static org.axonframework.test.matchers.Matchers.payloadsMatching;

/**
 * An outcome still unknown after the first series of queries ({@code outcome-queries-before-error}, 5 by default)
 * is shown failed with the session in {@code error} (a refund: {@code error}); not final: the rail is still asked,
 * and its answer moves the operation on as it would have.
 */
class SessionOutcomeOverdueTest extends SessionTestSupport {

    private final ErrorDetails timeout = ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "no answer");

    /** Confirmed, then unknown after each of {@code queries} queries (the last one not answered yet). */
    private Object[] askedTimes(int queries) {
        List<Object> events = new ArrayList<>(List.of(created(), started(), readyToConfirm(), confirmed()));
        for (int query = 0; query < queries; query++) {
            events.add(new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, timeout, query, NOW));
            events.add(new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, order(CARD, AUTO), query + 1, NOW));
        }
        return events.toArray();
    }

    private Object[] inError() {
        List<Object> events = new ArrayList<>(List.of(askedTimes(5)));
        events.add(new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 5, NOW));
        events.add(new PaymentOutcomeOverdueEvent(SESSION, PAYMENT, Operation.overdueError("payment", 5),
                Operation.overdueSessionError(PAYMENT.value()), NOW));
        return events.toArray();
    }

    @Test
    void unknownAfterTheFourthQueryIsStillOnlyUnknown() {
        fixture.given(askedTimes(4))
                .when(answer(new AuthorizationOutcome.Unknown(timeout)))
                .expectEvents(new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 4, NOW));
    }

    @Test
    void unknownAfterTheFifthQueryIsOverdueAndTheRailIsStillAskedLater() {
        fixture.given(askedTimes(5))
                .when(answer(new AuthorizationOutcome.Unknown(timeout)))
                .expectEventsMatching(payloadsMatching(exactSequenceOf(
                        Matchers.<Object>equalTo(new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 5, NOW)),
                        Matchers.<Object>predicate(event -> event instanceof PaymentOutcomeOverdueEvent overdue
                                && overdue.error().code() == ErrorCode.PROVIDER_TIMEOUT
                                && overdue.error().description().contains("do not repeat it")
                                && overdue.sessionError().code() == ErrorCode.PROVIDER_TIMEOUT),
                        andNoMore())))
                .expectScheduledDeadlineWithName(Duration.ofMinutes(16), Session.OUTCOME_QUERY);
    }

    @Test
    void aPaymentInErrorIsQueriedWhenItsDeadlineFallsDue() {
        fixture.given(askedTimes(5))
                .andGivenCommands(answer(new AuthorizationOutcome.Unknown(timeout)))
                .whenTimeElapses(Duration.ofMinutes(16))
                .expectEvents(new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, order(CARD, AUTO), 6, NOW));
    }

    @Test
    void anApprovalAfterTheErrorSucceedsThePayment() {
        fixture.given(inError())
                .when(answer(new AuthorizationOutcome.Approved(AUTH)))
                .expectEvents(succeeded(AMOUNT));
    }

    @Test
    void aDeclineAfterTheErrorFailsThePayment() {
        fixture.given(inError())
                .when(answer(new AuthorizationOutcome.Declined(
                        ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "no"))))
                .expectEvents(failed(ErrorCode.DECLINED_BY_ISSUER_BANK, "no"));
    }

    @Test
    void stillUnknownInErrorIsNotOverdueASecondTime() {
        fixture.given(inError())
                .when(answer(new AuthorizationOutcome.Unknown(timeout)))
                .expectEvents(new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, timeout, 5, NOW))
                .expectScheduledDeadlineWithName(Duration.ofMinutes(16), Session.OUTCOME_QUERY);
    }

    @Test
    void aPartnerCannotCancelAPaymentInError() {
        fixture.given(inError())
                .when(new CancelSessionCommand(SESSION, PROJECT))
                .expectException(refusedWith(ErrorCode.SESSION_WRONG_STATE))
                .expectNoEvents();
    }

    private Object[] refundAskedTimes(int queries) {
        List<Object> events = new ArrayList<>(List.of(paid()));
        events.add(refund(REFUND, 4_000));
        for (int query = 0; query < queries; query++) {
            events.add(new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, query, NOW));
            events.add(new RefundOutcomeQueryRequestedEvent(SESSION, PAYMENT, REFUND, order(CARD, AUTO),
                    Money.of(4_000, "rub"), query + 1, NOW));
        }
        return events.toArray();
    }

    @Test
    void aRefundUnknownAfterTheFifthQueryIsInErrorStillCountsAndIsStillAsked() {
        fixture.given(refundAskedTimes(5))
                .when(new RecordRefundOutcomeUnknownCommand(SESSION, REFUND, timeout))
                .expectEvents(new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 5, NOW),
                        new RefundOutcomeOverdueEvent(SESSION, PAYMENT, REFUND, Operation.overdueError("refund", 5),
                                NOW))
                .expectScheduledDeadlineWithName(Duration.ofMinutes(16), Session.REFUND_OUTCOME_QUERY);

        List<Object> inError = new ArrayList<>(List.of(refundAskedTimes(5)));
        inError.add(new RefundOutcomeUnknownEvent(SESSION, PAYMENT, REFUND, timeout, 5, NOW));
        inError.add(new RefundOutcomeOverdueEvent(SESSION, PAYMENT, REFUND, Operation.overdueError("refund", 5), NOW));
        fixture.given(inError.toArray())
                .when(new RefundSessionCommand(SESSION, RefundId.of("rf_4"), PROJECT, Money.of(6_001, "rub"), null))
                .expectException(refusedWith(ErrorCode.REFUND_AMOUNT_TOO_LARGE))
                .expectNoEvents();
        fixture.given(inError.toArray())
                .when(new RecordRefundOutcomeCommand(SESSION, REFUND, true, null))
                .expectEvents(new RefundAcceptedEvent(SESSION, PAYMENT, REFUND, NOW));
    }
}
