package io.paysession.command.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.TransactionInfo;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.hamcrest.TypeSafeMatcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * What the Session aggregate's fixture tests share: a fixture on the fixed clock and the default time limits,
 * and the ids, terms and events of one card payment. Each concern has its test class beside it
 * ({@code Session<Concern>Test}, in the manner of Axon's own {@code FixtureTest_<Concern>}).
 */
abstract class SessionTestSupport {

    static final Instant NOW = Instant.parse("2026-11-22T10:15:30.123456Z");
    static final SessionId SESSION = SessionId.of("ps_1");
    static final PaymentId PAYMENT = PaymentId.of("pm_7");
    static final RefundId REFUND = RefundId.of("rf_3");
    static final String PROJECT = "shop";
    static final CardMethod CARD = new CardMethod("card_0123", "visa", "424242", "4242");
    static final Money AMOUNT = Money.of(10_000, "RUB");
    static final FeeSchedule FEES = new FeeSchedule(250, 30);
    static final PartnerTerms AUTO = new PartnerTerms(CaptureMode.AUTO, FEES);
    static final PartnerTerms DELAYED = new PartnerTerms(CaptureMode.DELAYED, FEES);
    static final ObjectNode CUSTOMER = JsonNodeFactory.instance.objectNode().put("reference", "lucky");
    static final PaymentData CARD_PAYMENT = payment(CARD);
    static final TransactionInfo AUTH = TransactionInfo.card("123456789012", "A1B2C3");
    static final SessionTimeLimits LIMITS = SessionTimeLimits.defaults();
    static final ErrorDetails CANCELLED_BY_PARTNER =
            ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER, Session.CANCELLED_BY_PARTNER);
    static final CustomerInteraction CHALLENGE = new CustomerInteraction.Redirect(
            "https://pay.example/sandbox/interactions/abc", "https://pay.example/sandbox/interactions/abc", "GET",
            Map.of(), Map.of());

    FixtureConfiguration<Session> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Session.class);
        fixture.registerInjectableResource(Clock.fixed(NOW, ZoneOffset.UTC));
        fixture.registerInjectableResource(SessionClocks.real(Clock.fixed(NOW, ZoneOffset.UTC)));
        fixture.registerInjectableResource(LIMITS);
    }

    static PaymentData payment(PaymentMethod method) {
        return new PaymentData(method, AMOUNT, CUSTOMER, null, null, JsonNodeFactory.instance.textNode("order 42"), null);
    }

    static RailOrder order(PaymentMethod method, PartnerTerms terms) {
        return new RailOrder(method, AMOUNT, terms.captureMode(), null);
    }

    static SessionCreatedEvent created(PaymentData draft) {
        return new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V1, draft, PayoutData.EMPTY, NOW);
    }

    static SessionCreatedEvent created() {
        return created(PaymentData.EMPTY);
    }

    static PaymentStartedEvent started(PaymentMethod method, PartnerTerms terms) {
        return new PaymentStartedEvent(SESSION, PAYMENT, payment(method), terms, NOW);
    }

    static PaymentStartedEvent started() {
        return started(CARD, AUTO);
    }

    static PaymentReadyToConfirmEvent readyToConfirm() {
        return new PaymentReadyToConfirmEvent(SESSION, PAYMENT, NOW);
    }

    static PaymentConfirmedEvent confirmed(PaymentMethod method, PartnerTerms terms) {
        return new PaymentConfirmedEvent(SESSION, PAYMENT, order(method, terms), NOW);
    }

    static PaymentConfirmedEvent confirmed() {
        return confirmed(CARD, AUTO);
    }

    static PaymentSucceededEvent succeeded(Money captured) {
        return new PaymentSucceededEvent(SESSION, PAYMENT, AUTH, captured, FEES.feeFor(captured), NOW);
    }

    static PaymentFailedEvent failed(ErrorCode code, String description) {
        return new PaymentFailedEvent(SESSION, PAYMENT, ErrorDetails.of(code, description),
                ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                        "The session was cancelled because its payment failed: " + code.code()),
                NOW);
    }

    /** A refund of the paid card payment ({@link #paid()}). */
    static RefundRequestedEvent refund(RefundId id, long amount) {
        return new RefundRequestedEvent(SESSION, PAYMENT, id, order(CARD, AUTO), Money.of(amount, "rub"), null, NOW);
    }

    static Object[] paid() {
        return new Object[]{created(), started(), readyToConfirm(), confirmed(), succeeded(AMOUNT)};
    }

    static Object[] held() {
        return new Object[]{created(), started(CARD, DELAYED), readyToConfirm(), confirmed(CARD, DELAYED),
                new PaymentAuthorizedEvent(SESSION, PAYMENT, AUTH, NOW)};
    }

    static RecordPaymentAuthorizationCommand answer(AuthorizationOutcome outcome) {
        return new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, outcome);
    }

    static Matcher<Throwable> refusedWith(ErrorCode code) {
        return new TypeSafeMatcher<>() {
            @Override
            protected boolean matchesSafely(Throwable item) {
                return item instanceof PaymentsException refusal && refusal.code() == code;
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("a PaymentsException with code " + code.code());
            }
        };
    }
}
