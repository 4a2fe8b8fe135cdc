package io.paysession.command.process;

import io.paysession.api.error.PaymentsException;
import io.paysession.api.recurrent.UseRecurrentTokenCommand;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentHoldReleasedEvent;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.TransactionInfo;
import io.paysession.command.rails.PaymentRail;
import io.paysession.command.rails.PaymentRails;
import io.paysession.command.rails.PrecheckResult;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.RefundOutcome;
import io.paysession.command.vault.CardVault;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.concurrent.CompletionStage;

/**
 * Drives payments through their rails: a started payment is pre-checked, a confirmed one authorized, an
 * unknown outcome queried again when its deadline says so, a capture, a release and a refund each passed
 * on; each answer goes back to the Session as a command. It runs on a streaming processor, so its
 * position advances only after the answer is recorded: a crash in between makes it ask the rail again
 * (with the same payment id) rather than lose the answer. Replays never call rails.
 */
@Component
@ProcessingGroup(PaymentProcess.PROCESSING_GROUP)
@DisallowReplay
public class PaymentProcess {

    public static final String PROCESSING_GROUP = "payment-process";

    private static final Logger log = LoggerFactory.getLogger(PaymentProcess.class);

    private final PaymentRails rails;
    private final CardVault vault;
    private final ProcessCommandSender commands;
    private final RailAnswers answers;

    public PaymentProcess(PaymentRails rails, CardVault vault, ProcessCommandSender commands, RailAnswers answers) {
        this.rails = rails;
        this.vault = vault;
        this.commands = commands;
        this.answers = answers;
    }

    @EventHandler
    void on(PaymentStartedEvent event) {
        if (event.payment().method() instanceof RecurrentMethod recurrent) {
            try {
                commands.send(new UseRecurrentTokenCommand(recurrent.token(), event.sessionId(), event.paymentId()));
            } catch (PaymentsException refusal) {
                commands.send(new RefusePaymentCommand(event.sessionId(), event.paymentId(), refusal.details()));
                return;
            }
        }
        RailOrder order = new RailOrder(event.payment().method(), event.payment().amount(),
                event.terms().captureMode(), null);
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), order);
        PrecheckResult result = await(railOf(order).precheck(operation));
        if (result instanceof PrecheckResult.Refused refused) {
            commands.send(new RefusePaymentCommand(event.sessionId(), event.paymentId(), refused.reason()));
        } else {
            commands.send(new MarkPaymentReadyToConfirmCommand(event.sessionId(), event.paymentId()));
        }
    }

    @EventHandler
    void on(PaymentConfirmedEvent event) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        AuthorizationOutcome outcome = await(railOf(event.order()).authorize(operation));
        commands.send(new RecordPaymentAuthorizationCommand(event.sessionId(), event.paymentId(), outcome));
    }

    @EventHandler
    void on(PaymentOutcomeQueryRequestedEvent event) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        AuthorizationOutcome outcome = await(railOf(event.order()).queryOutcome(operation));
        commands.send(new RecordPaymentAuthorizationCommand(event.sessionId(), event.paymentId(), outcome));
    }

    @EventHandler
    void on(PaymentCaptureRequestedEvent event) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        TransactionInfo info = await(railOf(event.order()).capture(operation, event.captureAmount()));
        commands.send(new RecordPaymentCaptureCommand(event.sessionId(), event.paymentId(), info));
    }

    @EventHandler
    void on(PaymentHoldReleasedEvent event) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        await(railOf(event.order()).release(operation));
        log.info("Hold of {} released", event.paymentId());
    }

    @EventHandler
    void on(RefundRequestedEvent event) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        RefundOutcome outcome = await(railOf(event.order()).refund(operation, event.refundId(), event.amount()));
        commands.send(outcome instanceof RefundOutcome.Declined declined
                ? new RecordRefundOutcomeCommand(event.sessionId(), event.refundId(), false, declined.reason())
                : new RecordRefundOutcomeCommand(event.sessionId(), event.refundId(), true, null));
    }

    private PaymentRail railOf(RailOrder order) {
        return rails.railFor(order.method());
    }

    private <T> T await(CompletionStage<T> answer) {
        return answers.await(answer);
    }
}
