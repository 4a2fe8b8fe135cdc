package io.paysession.command.process;

import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.MarkPayoutReadyToConfirmCommand;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.PayoutOutcomeQueryRequestedEvent;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.RecordPayoutOutcomeCommand;
import io.paysession.api.session.RefusePayoutCommand;
import io.paysession.command.process.RailCallJournal.Kind;
import io.paysession.command.rails.PayoutOperation;
import io.paysession.command.rails.PayoutRail;
import io.paysession.command.rails.PrecheckResult;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.messaging.annotation.MessageIdentifier;
import org.springframework.stereotype.Component;

import java.util.concurrent.CompletableFuture;

/**
 * Drives payouts through their bank, as {@link PaymentProcess} drives payments: a started payout is
 * pre-checked (a recipient verification is not: it is confirmed at once), a confirmed one sent, an
 * unknown outcome queried when its deadline says so. Same processor, same guarantees: a payout is sent at
 * most once per payout id ({@link MoneyMovingCalls}); after that only its query is asked.
 */
@Component
@ProcessingGroup(PaymentProcess.PROCESSING_GROUP)
@DisallowReplay
public class PayoutProcess {

    private final PayoutRail rail;
    private final RailCalls calls;
    private final MoneyMovingCalls moneyCalls;

    public PayoutProcess(PayoutRail rail, RailCalls calls, MoneyMovingCalls moneyCalls) {
        this.rail = rail;
        this.calls = calls;
        this.moneyCalls = moneyCalls;
    }

    @EventHandler
    CompletableFuture<Void> on(PayoutStartedEvent event, @MessageIdentifier String eventId) {
        if (event.payout().method() instanceof PayoutMethod.FasterPaymentVerification) {
            return CompletableFuture.completedFuture(null);
        }
        PayoutOperation operation = new PayoutOperation(event.sessionId(), event.payoutId(), event.payout());
        return calls.retryable(eventId, event.sessionId(), "pre-check of " + event.payoutId().value(),
                () -> rail.precheck(operation), result -> result instanceof PrecheckResult.Refused refused
                        ? new RefusePayoutCommand(event.sessionId(), event.payoutId(), refused.reason())
                        : new MarkPayoutReadyToConfirmCommand(event.sessionId(), event.payoutId()));
    }

    @EventHandler
    CompletableFuture<Void> on(PayoutConfirmedEvent event, @MessageIdentifier String eventId) {
        PayoutOperation operation = new PayoutOperation(event.sessionId(), event.payoutId(), event.payout());
        return moneyCalls.callOnce(eventId, Kind.PAYOUT, event.payoutId().value(), event.sessionId(),
                () -> rail.send(operation), () -> rail.queryOutcome(operation), AuthorizationOutcome.Unknown::new,
                outcome -> new RecordPayoutOutcomeCommand(event.sessionId(), event.payoutId(), outcome));
    }

    @EventHandler
    CompletableFuture<Void> on(PayoutOutcomeQueryRequestedEvent event, @MessageIdentifier String eventId) {
        PayoutOperation operation = new PayoutOperation(event.sessionId(), event.payoutId(), event.payout());
        return moneyCalls.query(eventId, Kind.PAYOUT, event.payoutId().value(), event.sessionId(),
                () -> rail.queryOutcome(operation), AuthorizationOutcome.Unknown::new,
                outcome -> new RecordPayoutOutcomeCommand(event.sessionId(), event.payoutId(), outcome));
    }
}
