package io.paysession.command.process;

import io.paysession.api.RequestMetadataKeys;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.node.NodeRoles;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.MarkPayoutReadyToConfirmCommand;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutFailedEvent;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.PayoutOutcomeQueryRequestedEvent;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.PayoutSucceededEvent;
import io.paysession.api.session.RecordPayoutOutcomeCommand;
import io.paysession.api.session.RefusePayoutCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.command.process.RailCallJournal.Kind;
import io.paysession.command.rails.PayoutOperation;
import io.paysession.command.rails.PayoutRail;
import io.paysession.command.rails.PrecheckResult;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.messaging.annotation.MessageIdentifier;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;

import java.util.concurrent.CompletableFuture;

/**
 * Drives payouts through their bank, as {@link PaymentProcess} drives payments: a started payout is
 * pre-checked (a recipient verification is not: it is confirmed at once), a confirmed one sent, an
 * unknown outcome queried when its deadline says so. Same processor, same guarantees: a payout is sent at
 * most once per payout id ({@link MoneyMovingCalls}); after that only its query is asked.
 */
@Component
@ConditionalOnExpression(NodeRoles.RUNS_PROCESSES)
@ProcessingGroup(PaymentProcess.PROCESSING_GROUP)
@DisallowReplay
public class PayoutProcess {

    private final PayoutRail rail;
    private final RailCalls calls;
    private final MoneyMovingCalls moneyCalls;
    private final WalletHolds holds;
    private final ProcessCommandSender commands;
    private final EventPositions positions;

    public PayoutProcess(PayoutRail rail, RailCalls calls, MoneyMovingCalls moneyCalls, WalletHolds holds,
                         ProcessCommandSender commands, EventPositions positions) {
        this.rail = rail;
        this.calls = calls;
        this.moneyCalls = moneyCalls;
        this.holds = holds;
        this.commands = commands;
        this.positions = positions;
    }

    /**
     * A payout from the partner's balance first holds its amount, in the processor's transaction; one the balance
     * does not cover is refused with {@code insufficient_wallet_balance} and never reaches the bank.
     */
    @EventHandler
    CompletableFuture<Void> on(PayoutStartedEvent event, @MessageIdentifier String eventId,
                               @MetaDataValue(RequestMetadataKeys.PROJECT) String project) {
        if (event.payout().method() instanceof PayoutMethod.FasterPaymentVerification) {
            return CompletableFuture.completedFuture(null);
        }
        if (event.fromBalance() && !holds.hold(project, event.sessionId(), event.payoutId(), event.payout().amount())) {
            commands.send(new RefusePayoutCommand(event.sessionId(), event.payoutId(), ErrorDetails.of(
                    ErrorCode.INSUFFICIENT_WALLET_BALANCE, "The payout is more than what is left of the balance")));
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
    void on(PayoutFailedEvent event) {
        holds.release(event.payoutId());
    }

    /** A cancellation ends the session's payout that was under way, if any. */
    @EventHandler
    void on(SessionCancelledEvent event) {
        holds.releaseSession(event.sessionId());
    }

    /**
     * The hold stays until the payout's settlement entry is in the balance (its position is the event's, which the
     * settlement projection records too). A tracking processor always learns it from the store.
     */
    @EventHandler
    void on(PayoutSucceededEvent event, EventMessage<?> message) {
        long position = positions.positionOf(message).orElseThrow(() -> new IllegalStateException(
                "the store gives no position for event " + message.getIdentifier()));
        holds.settledAt(event.payoutId(), position);
    }

    @EventHandler
    CompletableFuture<Void> on(PayoutOutcomeQueryRequestedEvent event, @MessageIdentifier String eventId) {
        PayoutOperation operation = new PayoutOperation(event.sessionId(), event.payoutId(), event.payout());
        return moneyCalls.query(eventId, Kind.PAYOUT, event.payoutId().value(), event.sessionId(),
                () -> rail.queryOutcome(operation), AuthorizationOutcome.Unknown::new,
                outcome -> new RecordPayoutOutcomeCommand(event.sessionId(), event.payoutId(), outcome));
    }
}
