package io.paysession.command.process;

import io.paysession.api.RequestMetadataKeys;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.node.NodeRoles;
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
import org.axonframework.messaging.annotation.MessageIdentifier;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;

import java.util.concurrent.CompletableFuture;

/**
 * Drives payments through their rails: a started payment is pre-checked, a confirmed one authorized, a
 * capture, a release and a refund each passed on, an unknown outcome queried when its deadline says so;
 * each answer goes back to the Session as a command. No thread waits for a rail: handling an event records
 * the call as in flight and starts it after the processor's transaction commits ({@link RailCalls}); the
 * answer's command ends it. A call whose answer is never recorded (a crash, a command that fails) is handed
 * back to this process by {@link RailCallRecovery}, as a redelivery would be. Then the calls that move money
 * (authorize, capture, refund) are not made again: {@link MoneyMovingCalls} journals each before it is made
 * and turns a second attempt into the rail's query, and a time-out or a failure into an unknown outcome.
 * Pre-checks and releases move no money and are simply made again. Replays never call rails.
 * <p>
 * Each handler returns a future that completes once the rail's answer is recorded (or the event given back);
 * the processor ignores it, the tests wait on it.
 */
@Component
@ConditionalOnExpression(NodeRoles.RUNS_PROCESSES)
@ProcessingGroup(PaymentProcess.PROCESSING_GROUP)
@DisallowReplay
public class PaymentProcess {

    public static final String PROCESSING_GROUP = "payment-process";

    private static final Logger log = LoggerFactory.getLogger(PaymentProcess.class);
    private final PaymentRails rails;
    private final ProcessCommandSender commands;
    private final RailCalls calls;
    private final MoneyMovingCalls moneyCalls;

    public PaymentProcess(PaymentRails rails, ProcessCommandSender commands, RailCalls calls,
                          MoneyMovingCalls moneyCalls) {
        this.rails = rails;
        this.commands = commands;
        this.calls = calls;
        this.moneyCalls = moneyCalls;
    }

    /**
     * {@code project} is the metadata the gateway put on the command that started the payment (the verified partner,
     * copied onto its events); the token refuses a payment of another project, or of none.
     */
    @EventHandler
    CompletableFuture<Void> on(PaymentStartedEvent event, @MetaDataValue(RequestMetadataKeys.PROJECT) String project,
                               @MessageIdentifier String eventId) {
        if (event.payment().method() instanceof RecurrentMethod recurrent) {
            try {
                commands.send(new UseRecurrentTokenCommand(recurrent.token(), event.sessionId(), event.paymentId(),
                        project));
            } catch (PaymentsException refusal) {
                commands.send(new RefusePaymentCommand(event.sessionId(), event.paymentId(), refusal.details()));
                return CompletableFuture.completedFuture(null);
            }
        }
        RailOrder order = new RailOrder(event.payment().method(), event.payment().amount(),
                event.terms().captureMode(), null);
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), order);
        return calls.retryable(eventId, event.sessionId(), "pre-check of " + event.paymentId().value(),
                () -> railOf(order).precheck(operation), result -> result instanceof PrecheckResult.Refused refused
                        ? new RefusePaymentCommand(event.sessionId(), event.paymentId(), refused.reason())
                        : new MarkPaymentReadyToConfirmCommand(event.sessionId(), event.paymentId()));
    }

    @EventHandler
    CompletableFuture<Void> on(PaymentConfirmedEvent event, @MessageIdentifier String eventId) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        PaymentRail rail = railOf(event.order());
        return moneyCalls.callOnce(eventId, Kind.AUTHORIZE, event.paymentId().value(), event.sessionId(),
                () -> rail.authorize(operation), () -> rail.queryOutcome(operation),
                AuthorizationOutcome.Unknown::new,
                outcome -> new RecordPaymentAuthorizationCommand(event.sessionId(), event.paymentId(), outcome));
    }

    @EventHandler
    CompletableFuture<Void> on(PaymentOutcomeQueryRequestedEvent event, @MessageIdentifier String eventId) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        return moneyCalls.query(eventId, Kind.AUTHORIZE, event.paymentId().value(), event.sessionId(),
                () -> railOf(event.order()).queryOutcome(operation), AuthorizationOutcome.Unknown::new,
                outcome -> new RecordPaymentAuthorizationCommand(event.sessionId(), event.paymentId(), outcome));
    }

    @EventHandler
    CompletableFuture<Void> on(PaymentCaptureRequestedEvent event, @MessageIdentifier String eventId) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        PaymentRail rail = railOf(event.order());
        return moneyCalls.callOnce(eventId, Kind.CAPTURE, event.paymentId().value(), event.sessionId(),
                () -> rail.capture(operation, event.captureAmount()),
                () -> rail.queryCapture(operation, event.captureAmount()), CaptureOutcome.Unknown::new,
                outcome -> recordCapture(event.sessionId(), event.paymentId(), outcome));
    }

    @EventHandler
    CompletableFuture<Void> on(PaymentCaptureQueryRequestedEvent event, @MessageIdentifier String eventId) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        return moneyCalls.query(eventId, Kind.CAPTURE, event.paymentId().value(), event.sessionId(),
                () -> railOf(event.order()).queryCapture(operation, event.captureAmount()), CaptureOutcome.Unknown::new,
                outcome -> recordCapture(event.sessionId(), event.paymentId(), outcome));
    }

    private static Object recordCapture(SessionId session, PaymentId payment, CaptureOutcome outcome) {
        return outcome instanceof CaptureOutcome.Captured captured
                ? new RecordPaymentCaptureCommand(session, payment, captured.transactionInfo())
                : new RecordCaptureOutcomeUnknownCommand(session, payment, ((CaptureOutcome.Unknown) outcome).reason());
    }

    @EventHandler
    CompletableFuture<Void> on(PaymentHoldReleasedEvent event, @MessageIdentifier String eventId) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        return calls.retryable(eventId, event.sessionId(), "release of " + event.paymentId().value(),
                () -> railOf(event.order()).release(operation).thenApply(released -> Boolean.TRUE), released -> {
                    log.info("Hold of {} released", event.paymentId());
                    return null;
                });
    }

    @EventHandler
    CompletableFuture<Void> on(RefundRequestedEvent event, @MessageIdentifier String eventId) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        PaymentRail rail = railOf(event.order());
        return moneyCalls.callOnce(eventId, Kind.REFUND, event.refundId().value(), event.sessionId(),
                () -> rail.refund(operation, event.refundId(), event.amount()),
                () -> rail.queryRefund(operation, event.refundId(), event.amount()), RefundOutcome.Unknown::new,
                outcome -> recordRefund(event.sessionId(), event.refundId(), outcome));
    }

    @EventHandler
    CompletableFuture<Void> on(RefundOutcomeQueryRequestedEvent event, @MessageIdentifier String eventId) {
        RailOperation operation = new RailOperation(event.sessionId(), event.paymentId(), event.order());
        return moneyCalls.query(eventId, Kind.REFUND, event.refundId().value(), event.sessionId(),
                () -> railOf(event.order()).queryRefund(operation, event.refundId(), event.amount()),
                RefundOutcome.Unknown::new, outcome -> recordRefund(event.sessionId(), event.refundId(), outcome));
    }

    private static Object recordRefund(SessionId session, RefundId refund, RefundOutcome outcome) {
        if (outcome instanceof RefundOutcome.Accepted) {
            return new RecordRefundOutcomeCommand(session, refund, true, null);
        } else if (outcome instanceof RefundOutcome.Declined declined) {
            return new RecordRefundOutcomeCommand(session, refund, false, declined.reason());
        }
        return new RecordRefundOutcomeUnknownCommand(session, refund, ((RefundOutcome.Unknown) outcome).reason());
    }

    private PaymentRail railOf(RailOrder order) {
        return rails.railFor(order.method());
    }
}
