package io.paysession.webhook.testing;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.PaymentActionRequiredEvent;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundDeclinedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.TransactionInfo;

import java.time.Duration;
import java.time.Instant;

/** The events of one card payment session, as the Session aggregate records them, one second apart. */
public final class SampleSession {

    public static final String PROJECT = "shop";
    public static final String VAULT_TOKEN = "vault_tok_5f1c";

    private final SessionId sessionId;
    private final PaymentId paymentId;
    private final Instant start = Instant.parse("2026-11-22T10:15:30.123456Z");
    private int ticks;

    public SampleSession(long number) {
        this.sessionId = SessionId.of(number);
        this.paymentId = PaymentId.of(number + 1);
    }

    public SessionId sessionId() {
        return sessionId;
    }

    public PaymentId paymentId() {
        return paymentId;
    }

    public SessionCreatedEvent created(ApiVersion version) {
        return new SessionCreatedEvent(sessionId, PROJECT, version, PaymentData.EMPTY, null, next());
    }

    public PaymentStartedEvent paymentStarted() {
        ObjectNode customer = JsonNodeFactory.instance.objectNode().put("reference", "customer-17");
        PaymentData data = new PaymentData(new CardMethod(VAULT_TOKEN, "visa", "424242", "4242"),
                Money.of(10_000, "RUB"), customer, null, null, null, null);
        return new PaymentStartedEvent(sessionId, paymentId, data,
                new PartnerTerms(CaptureMode.AUTO, new FeeSchedule(150, 0)), next());
    }

    public PaymentReadyToConfirmEvent readyToConfirm() {
        return new PaymentReadyToConfirmEvent(sessionId, paymentId, next());
    }

    public PaymentConfirmedEvent confirmed() {
        return new PaymentConfirmedEvent(sessionId, paymentId, new RailOrder(
                new CardMethod(VAULT_TOKEN, "visa", "424242", "4242"), Money.of(10_000, "RUB"), CaptureMode.AUTO, null),
                next());
    }

    public PaymentSucceededEvent succeeded() {
        return new PaymentSucceededEvent(sessionId, paymentId, TransactionInfo.card("412345678901", "A1B2C3"),
                Money.of(10_000, "RUB"), Money.of(150, "RUB"), next());
    }

    public PaymentActionRequiredEvent actionRequired() {
        return new PaymentActionRequiredEvent(sessionId, paymentId, new CustomerInteraction.Redirect(
                "https://pay.example/sandbox/interactions/f00d", "https://pay.example/sandbox/interactions/f00d", "GET",
                java.util.Map.of(), java.util.Map.of()), next());
    }

    public PaymentAuthorizedEvent held() {
        return new PaymentAuthorizedEvent(sessionId, paymentId, TransactionInfo.card("412345678901", "A1B2C3"), next());
    }

    public RefundRequestedEvent refundRequested(String refundId, long amount) {
        return new RefundRequestedEvent(sessionId, paymentId, RefundId.of(refundId), new RailOrder(
                new CardMethod(VAULT_TOKEN, "visa", "424242", "4242"), Money.of(10_000, "RUB"), CaptureMode.AUTO, null),
                Money.of(amount, "RUB"), null, next());
    }

    public RefundAcceptedEvent refundAccepted(String refundId) {
        return new RefundAcceptedEvent(sessionId, paymentId, RefundId.of(refundId), next());
    }

    public RefundDeclinedEvent refundDeclined(String refundId) {
        return new RefundDeclinedEvent(sessionId, paymentId, RefundId.of(refundId),
                ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "refused"), next());
    }

    public PaymentFailedEvent declined() {
        return new PaymentFailedEvent(sessionId, paymentId,
                ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "declined by the issuer bank"),
                ErrorDetails.of(ErrorCode.SESSION_CANCELLED, "the payment failed"), next());
    }

    public SessionCancelledEvent cancelledByPartner() {
        return new SessionCancelledEvent(sessionId,
                ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER, "cancelled by the partner"), next());
    }

    private Instant next() {
        return start.plus(Duration.ofSeconds(ticks++));
    }
}
