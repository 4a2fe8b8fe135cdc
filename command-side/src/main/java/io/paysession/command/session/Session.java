package io.paysession.command.session;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.CreateSessionCommand;
import io.paysession.api.session.InitPaymentCommand;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.StartPaymentCommand;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.session.SessionLifecycle.Stage;
import io.paysession.command.session.SessionLifecycle.Trigger;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

import java.time.Clock;
import java.time.Instant;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * A payment session: the consistency boundary of its operations. It keeps only what its decisions need,
 * does no I/O and takes time from the injected clock. Which command is allowed when is decided by
 * {@link SessionLifecycle}; the event sourcing handlers only record what happened.
 */
@Aggregate
public class Session {

    static final String CANCELLED_BY_PARTNER = "The session was cancelled by the partner";

    @AggregateIdentifier
    private SessionId sessionId;
    private String project;
    private SessionStatus status;
    private PaymentData draft;
    private PaymentId paymentId;
    private OperationState paymentState;
    private PaymentData payment;
    private PartnerTerms terms;

    protected Session() {
        // for Axon: rebuilt from events
    }

    @CommandHandler
    public Session(CreateSessionCommand command, Clock clock) {
        PaymentData draft = command.paymentDraft() == null ? PaymentData.EMPTY : command.paymentDraft();
        apply(new SessionCreatedEvent(command.sessionId(), command.project(), command.apiVersion(), draft,
                WireFormat.now(clock)));
    }

    @CommandHandler
    public Session(InitPaymentCommand command, Clock clock) {
        requireComplete(command.payment());
        Instant now = WireFormat.now(clock);
        apply(new SessionCreatedEvent(command.sessionId(), command.project(), command.apiVersion(),
                PaymentData.EMPTY, now));
        apply(new PaymentStartedEvent(command.sessionId(), command.paymentId(), command.payment(), command.terms(),
                now));
    }

    @CommandHandler
    public void handle(StartPaymentCommand command, Clock clock) {
        requireProject(command.project());
        advance(Trigger.START_PAYMENT);
        PaymentData merged = draft.overriddenBy(command.payment());
        requireComplete(merged);
        apply(new PaymentStartedEvent(sessionId, command.paymentId(), merged, command.terms(), WireFormat.now(clock)));
    }

    @CommandHandler
    public void handle(ConfirmSessionCommand command, Clock clock) {
        requireProject(command.project());
        advance(Trigger.CONFIRM);
        apply(new PaymentConfirmedEvent(sessionId, paymentId, payment.method(), payment.amount(),
                WireFormat.now(clock)));
    }

    @CommandHandler
    public void handle(CancelSessionCommand command, Clock clock) {
        requireProject(command.project());
        advance(Trigger.CANCEL);
        apply(new SessionCancelledEvent(sessionId,
                ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER, CANCELLED_BY_PARTNER), WireFormat.now(clock)));
    }

    @CommandHandler
    public void handle(MarkPaymentReadyToConfirmCommand command, Clock clock) {
        requirePayment(command.paymentId());
        advance(Trigger.PRECHECK_PASSED);
        apply(new PaymentReadyToConfirmEvent(sessionId, paymentId, WireFormat.now(clock)));
    }

    @CommandHandler
    public void handle(RefusePaymentCommand command, Clock clock) {
        requirePayment(command.paymentId());
        advance(Trigger.PRECHECK_REFUSED);
        fail(command.reason(), clock);
    }

    @CommandHandler
    public void handle(RecordPaymentAuthorizationCommand command, Clock clock) {
        requirePayment(command.paymentId());
        if (command.outcome() instanceof AuthorizationOutcome.Approved approved) {
            advance(Trigger.APPROVED);
            apply(new PaymentSucceededEvent(sessionId, paymentId, approved.transactionInfo(),
                    terms.fees().feeFor(payment.amount()), WireFormat.now(clock)));
        } else if (command.outcome() instanceof AuthorizationOutcome.Declined declined) {
            advance(Trigger.DECLINED);
            fail(declined.reason(), clock);
        }
    }

    private void fail(ErrorDetails reason, Clock clock) {
        ErrorDetails sessionError = ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                "The session was cancelled because its payment failed: " + reason.code().code());
        apply(new PaymentFailedEvent(sessionId, paymentId, reason, sessionError, WireFormat.now(clock)));
    }

    private void advance(Trigger trigger) {
        Stage current = new Stage(status, paymentState);
        if (SessionLifecycle.next(current, trigger).isEmpty()) {
            throw PaymentsException.wrongState(trigger.description() + " is not allowed while the session is "
                    + status.wireName()
                    + (paymentState == null ? "" : " and its payment is " + paymentState.wireStatus()));
        }
    }

    private void requireProject(String requester) {
        if (!project.equals(requester)) {
            throw new PaymentsException(ErrorCode.AUTHORIZATION_ERROR,
                    "The session belongs to another project");
        }
    }

    private void requirePayment(PaymentId reported) {
        if (paymentId == null || !paymentId.equals(reported)) {
            throw PaymentsException.wrongState("The session has no payment " + reported);
        }
    }

    private static void requireComplete(PaymentData data) {
        data.missingRequiredField().ifPresent(field -> {
            throw PaymentsException.invalidRequest(field + " is required to start a payment");
        });
    }

    @EventSourcingHandler
    void on(SessionCreatedEvent event) {
        sessionId = event.sessionId();
        project = event.project();
        status = SessionStatus.CREATED;
        draft = event.paymentDraft();
    }

    @EventSourcingHandler
    void on(PaymentStartedEvent event) {
        status = SessionStatus.IN_PROGRESS;
        paymentId = event.paymentId();
        paymentState = OperationState.IN_PROGRESS;
        payment = event.payment();
        terms = event.terms();
        draft = PaymentData.EMPTY;
    }

    @EventSourcingHandler
    void on(PaymentReadyToConfirmEvent event) {
        paymentState = OperationState.AWAITING_CONFIRMATION;
    }

    @EventSourcingHandler
    void on(PaymentConfirmedEvent event) {
        paymentState = OperationState.PROCESSING;
    }

    @EventSourcingHandler
    void on(PaymentSucceededEvent event) {
        paymentState = OperationState.SUCCEEDED;
        status = SessionStatus.ACCEPTED;
    }

    @EventSourcingHandler
    void on(PaymentFailedEvent event) {
        paymentState = OperationState.FAILED;
        status = SessionStatus.CANCELLED;
    }

    @EventSourcingHandler
    void on(SessionCancelledEvent event) {
        status = SessionStatus.CANCELLED;
        if (paymentState != null && !paymentState.isFinal()) {
            paymentState = OperationState.FAILED;
        }
    }
}
