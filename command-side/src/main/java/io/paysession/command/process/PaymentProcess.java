package io.paysession.command.process;

import io.paysession.api.RequestMetadataKeys;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.recurrent.UseRecurrentTokenCommand;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.PaymentCaptureQueryRequestedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentHoldReleasedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RecordCaptureOutcomeUnknownCommand;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RecordRefundOutcomeUnknownCommand;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundOutcomeQueryRequestedEvent;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.SessionId;
import io.paysession.command.process.RailCallJournal.Kind;
import io.paysession.command.rails.CaptureOutcome;
import io.paysession.command.rails.PaymentRail;
import io.paysession.command.rails.PaymentRails;
import io.paysession.command.rails.PrecheckResult;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.RefundOutcome;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.concurrent.CompletionStage;

/**
 * Drives payments through their rails: a started payment is pre-checked, a confirmed one authorized, a
 * capture, a release and a refund each passed on, an unknown outcome queried when its deadline says so;
 * each answer goes back to the Session as a command. It runs on a streaming processor, so its position
 * advances only after the answer is recorded: a crash in between makes it handle the event again. Then the
 * calls that move money (authorize, capture, refund) are not made again: {@link MoneyMovingCalls} journals
 * each before it is made and turns a second attempt into the rail's query, and a time-out or a failure into
 * an unknown outcome. Pre-checks and releases move no money and are simply made again. Replays never call
 * rails.
 */
@Component
@ProcessingGroup(PaymentProcess.PROCESSING_GROUP)
@DisallowReplay
public class PaymentProcess {

    public static final String PROCESSING_GROUP = "payment-process";

    private static final Logger log = LoggerFactory.getLogger(PaymentProcess.class);
    private final PaymentRails rails;
    private final ProcessCommandSender commands;
    private final RailAnswers answers;
    private final MoneyMovingCalls moneyCalls;

    public PaymentProcess(PaymentRails rails, ProcessCommandSender commands, RailAnswers answers,
                          MoneyMovingCalls moneyCalls) {
        this.rails = rails;
        this.commands = commands;
        this.answers = answers;
        this.moneyCalls = moneyCalls;
    }

    /**
     * {@code project} is the metadata the gateway put on the command that started the payment (the verified partner,
     * copied onto its events); the token refuses a payment of another project, or of none.
     */
    @EventHandler
    void on(PaymentStartedEvent event, @MetaDataValue(RequestMetadataKeys.PROJECT) String project) {
        if (event.payment().method() instanceof RecurrentMethod recurrent) {
            try {
                commands.send(new UseRecurrentTokenCommand(recurrent.token(), event.sessionId(), event.paymentId(),
                        project));
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
        PaymentRail rail = railOf(event.order());
        AuthorizationOutcome outcome = moneyCalls.callOnce(Kind.AUTHORIZE, event.paymentId().value(),
                event.sessionId(), () -> rail.authorize(operation), () -> rail.queryOutcome(operation),
                AuthorizationOutcome.Unknown::new);
        commands.send(new RecordPaymentAuthorizationCommand(event.sessionId(), event.paymentId(), outcome));
    }

    @EventHandler
    void on(PaymentOutcomeQueryRequestedEvent event) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        AuthorizationOutcome outcome = moneyCalls.query(Kind.AUTHORIZE, event.paymentId().value(),
                () -> railOf(event.order()).queryOutcome(operation), AuthorizationOutcome.Unknown::new);
        commands.send(new RecordPaymentAuthorizationCommand(event.sessionId(), event.paymentId(), outcome));
    }

    @EventHandler
    void on(PaymentCaptureRequestedEvent event) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        PaymentRail rail = railOf(event.order());
        CaptureOutcome outcome = moneyCalls.callOnce(Kind.CAPTURE, event.paymentId().value(), event.sessionId(),
                () -> rail.capture(operation, event.captureAmount()),
                () -> rail.queryCapture(operation, event.captureAmount()), CaptureOutcome.Unknown::new);
        recordCapture(event.sessionId(), event.paymentId(), outcome);
    }

    @EventHandler
    void on(PaymentCaptureQueryRequestedEvent event) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        CaptureOutcome outcome = moneyCalls.query(Kind.CAPTURE, event.paymentId().value(),
                () -> railOf(event.order()).queryCapture(operation, event.captureAmount()), CaptureOutcome.Unknown::new);
        recordCapture(event.sessionId(), event.paymentId(), outcome);
    }

    private void recordCapture(SessionId session, PaymentId payment, CaptureOutcome outcome) {
        commands.send(outcome instanceof CaptureOutcome.Captured captured
                ? new RecordPaymentCaptureCommand(session, payment, captured.transactionInfo())
                : new RecordCaptureOutcomeUnknownCommand(session, payment, ((CaptureOutcome.Unknown) outcome).reason()));
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
        PaymentRail rail = railOf(event.order());
        RefundOutcome outcome = moneyCalls.callOnce(Kind.REFUND, event.refundId().value(), event.sessionId(),
                () -> rail.refund(operation, event.refundId(), event.amount()),
                () -> rail.queryRefund(operation, event.refundId(), event.amount()), RefundOutcome.Unknown::new);
        recordRefund(event.sessionId(), event.refundId(), outcome);
    }

    @EventHandler
    void on(RefundOutcomeQueryRequestedEvent event) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        RefundOutcome outcome = moneyCalls.query(Kind.REFUND, event.refundId().value(),
                () -> railOf(event.order()).queryRefund(operation, event.refundId(), event.amount()),
                RefundOutcome.Unknown::new);
        recordRefund(event.sessionId(), event.refundId(), outcome);
    }

    private void recordRefund(SessionId session, RefundId refund, RefundOutcome outcome) {
        if (outcome instanceof RefundOutcome.Accepted) {
            commands.send(new RecordRefundOutcomeCommand(session, refund, true, null));
        } else if (outcome instanceof RefundOutcome.Declined declined) {
            commands.send(new RecordRefundOutcomeCommand(session, refund, false, declined.reason()));
        } else {
            commands.send(new RecordRefundOutcomeUnknownCommand(session, refund, ((RefundOutcome.Unknown) outcome).reason()));
        }
    }

    private PaymentRail railOf(RailOrder order) {
        return rails.railFor(order.method());
    }

    private <T> T await(CompletionStage<T> answer) {
        return answers.await(answer);
    }
}
