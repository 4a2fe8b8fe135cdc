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
import org.springframework.stereotype.Component;

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
    private final ProcessCommandSender commands;
    private final RailAnswers answers;
    private final MoneyMovingCalls moneyCalls;

    public PayoutProcess(PayoutRail rail, ProcessCommandSender commands, RailAnswers answers,
                         MoneyMovingCalls moneyCalls) {
        this.rail = rail;
        this.commands = commands;
        this.answers = answers;
        this.moneyCalls = moneyCalls;
    }

    @EventHandler
    void on(PayoutStartedEvent event) {
        if (event.payout().method() instanceof PayoutMethod.FasterPaymentVerification) {
            return;
        }
        PrecheckResult result = answers.await(rail.precheck(
                new PayoutOperation(event.sessionId(), event.payoutId(), event.payout())));
        if (result instanceof PrecheckResult.Refused refused) {
            commands.send(new RefusePayoutCommand(event.sessionId(), event.payoutId(), refused.reason()));
        } else {
            commands.send(new MarkPayoutReadyToConfirmCommand(event.sessionId(), event.payoutId()));
        }
    }

    @EventHandler
    void on(PayoutConfirmedEvent event) {
        PayoutOperation operation = new PayoutOperation(event.sessionId(), event.payoutId(), event.payout());
        AuthorizationOutcome outcome = moneyCalls.callOnce(Kind.PAYOUT, event.payoutId().value(), event.sessionId(),
                () -> rail.send(operation), () -> rail.queryOutcome(operation), AuthorizationOutcome.Unknown::new);
        commands.send(new RecordPayoutOutcomeCommand(event.sessionId(), event.payoutId(), outcome));
    }

    @EventHandler
    void on(PayoutOutcomeQueryRequestedEvent event) {
        PayoutOperation operation = new PayoutOperation(event.sessionId(), event.payoutId(), event.payout());
        AuthorizationOutcome outcome = moneyCalls.query(Kind.PAYOUT, event.payoutId().value(),
                () -> rail.queryOutcome(operation), AuthorizationOutcome.Unknown::new);
        commands.send(new RecordPayoutOutcomeCommand(event.sessionId(), event.payoutId(), outcome));
    }
}
