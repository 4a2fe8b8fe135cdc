package io.paysession.command.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.FasterPaymentBindingMethod;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.session.EndRecurrentGrantCommand;
import io.paysession.api.session.RecurrentTokenFinishedEvent;
import io.paysession.api.session.RecurrentTokenGrantedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.TransactionInfo;
import org.axonframework.test.matchers.Matchers;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.axonframework.test.matchers.Matchers.andNoMore;
import static org.axonframework.test.matchers.Matchers.exactSequenceOf;
import static org.axonframework.test.matchers.Matchers.payloadsMatching;

class SessionRecurrentTokenTest extends SessionTestSupport {

    private final PaymentData recurrentCard = new PaymentData(CARD, AMOUNT, CUSTOMER,
            JsonNodeFactory.instance.objectNode().put("recurrent", "true"), null, null, null);

    private Object[] confirmedWith(PaymentData data, PaymentMethod method, PartnerTerms terms) {
        return new Object[]{created(), new PaymentStartedEvent(SESSION, PAYMENT, data, terms, NOW), readyToConfirm(),
                new PaymentConfirmedEvent(SESSION, PAYMENT, order(method, terms), NOW)};
    }

    @Test
    void aPaymentThatAskedForATokenGrantsItJustBeforeItSucceeds() {
        fixture.given(confirmedWith(recurrentCard, CARD, AUTO))
                .when(answer(new AuthorizationOutcome.Approved(AUTH)))
                .expectEventsMatching(payloadsMatching(exactSequenceOf(
                        grantOf(PAYMENT, CARD), Matchers.<Object>equalTo(succeeded(AMOUNT)), andNoMore())));
    }

    /** A grant of a token with a random name ({@code rt_} and 32 hex digits) to the payment. */
    private Matcher<Object> grantOf(PaymentId payment, PaymentMethod method) {
        return Matchers.predicate(payload -> payload instanceof RecurrentTokenGrantedEvent grant
                && grant.token().matches("rt_[0-9a-f]{32}")
                && grant.equals(new RecurrentTokenGrantedEvent(SESSION, payment, grant.token(), PROJECT, method,
                NOW)));
    }

    private String grantedToken() {
        List<String> tokens = new ArrayList<>();
        fixture.given(confirmedWith(recurrentCard, CARD, AUTO))
                .when(answer(new AuthorizationOutcome.Approved(AUTH)))
                .expectEventsMatching(payloadsMatching(Matchers.listWithAnyOf(Matchers.<Object>predicate(payload -> {
                    if (payload instanceof RecurrentTokenGrantedEvent grant) {
                        tokens.add(grant.token());
                        return true;
                    }
                    return false;
                }))));
        return tokens.get(0);
    }

    private Object[] paidWithGrant(String token) {
        List<Object> events = new ArrayList<>(List.of(confirmedWith(recurrentCard, CARD, AUTO)));
        events.add(new RecurrentTokenGrantedEvent(SESSION, PAYMENT, token, PROJECT, CARD, NOW));
        events.add(succeeded(AMOUNT));
        return events.toArray();
    }

    @Test
    void aDisabledTokenIsShownFinishedOnThePaymentThatGrantedItOnce() {
        java.time.Instant disabledAt = NOW.plusSeconds(60);
        fixture.given(paidWithGrant("rt_1"))
                .when(new EndRecurrentGrantCommand(SESSION, PAYMENT, "rt_1", disabledAt))
                .expectEvents(new RecurrentTokenFinishedEvent(SESSION, PAYMENT, "rt_1", disabledAt));

        List<Object> finished = new ArrayList<>(List.of(paidWithGrant("rt_1")));
        finished.add(new RecurrentTokenFinishedEvent(SESSION, PAYMENT, "rt_1", disabledAt));
        fixture.given(finished.toArray())
                .when(new EndRecurrentGrantCommand(SESSION, PAYMENT, "rt_1", disabledAt.plusSeconds(1)))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void aTokenThePaymentDidNotGrantIsRefused() {
        fixture.given(paidWithGrant("rt_1"))
                .when(new EndRecurrentGrantCommand(SESSION, PAYMENT, "rt_2", NOW))
                .expectException(PaymentsException.class)
                .expectNoEvents();
    }

    @Test
    void aFailedPaymentGrantsNoToken() {
        fixture.given(confirmedWith(recurrentCard, CARD, AUTO))
                .when(answer(new AuthorizationOutcome.Declined(
                        ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "no"))))
                .expectEvents(failed(ErrorCode.DECLINED_BY_ISSUER_BANK, "no"));
    }

    @Test
    void aPaymentThatAskedForNoTokenGrantsNone() {
        fixture.given(confirmedWith(CARD_PAYMENT, CARD, AUTO))
                .when(answer(new AuthorizationOutcome.Approved(AUTH)))
                .expectEvents(succeeded(AMOUNT));
    }

    @Test
    void tokensAreRandomSoNoOneCanComputeTheTokenOfAPayment() {
        Set<String> tokens = new HashSet<>();
        for (int grant = 0; grant < 50; grant++) {
            tokens.add(grantedToken());
        }
        // the same payment granting again (another fixture, same ids) gets another token every time
        org.assertj.core.api.Assertions.assertThat(tokens).hasSize(50)
                .allMatch(token -> token.matches("rt_[0-9a-f]{32}"))
                .doesNotContain("rt_" + UUID.nameUUIDFromBytes(("recurrent-token:" + PAYMENT.value())
                        .getBytes(StandardCharsets.UTF_8)).toString().replace("-", ""));
    }

    @Test
    void aBindingChargesNothingCostsNoFeeAndShowsTheAccountTokenWhenEnabled() {
        PaymentMethod binding = new FasterPaymentBindingMethod();
        PaymentData data = new PaymentData(binding, Money.of(1, "rub"), CUSTOMER,
                JsonNodeFactory.instance.objectNode().put("recurrent", true), null, null, null);
        PartnerTerms withAccountToken = new PartnerTerms(CaptureMode.AUTO, FEES, true);
        TransactionInfo info = new TransactionInfo(null, null, null, "bat_1");
        fixture.given(created(), new PaymentStartedEvent(SESSION, PAYMENT, data, withAccountToken, NOW),
                        readyToConfirm(), new PaymentConfirmedEvent(SESSION, PAYMENT,
                                new RailOrder(binding, Money.of(1, "rub"), CaptureMode.AUTO, null), NOW))
                .when(answer(new AuthorizationOutcome.Approved(info)))
                .expectEventsMatching(payloadsMatching(exactSequenceOf(grantOf(PAYMENT, binding),
                        Matchers.<Object>equalTo(new PaymentSucceededEvent(SESSION, PAYMENT, info, Money.of(0, "rub"),
                                Money.of(0, "rub"), NOW)), andNoMore())));
    }

    @Test
    void theAccountTokenIsLeftOutForPartnersWithoutIt() {
        PaymentMethod fps = new FasterPaymentMethod(null);
        TransactionInfo info = new TransactionInfo(null, null, "A1", "bat_1");
        fixture.given(confirmedWith(payment(fps), fps, AUTO))
                .when(answer(new AuthorizationOutcome.Approved(info)))
                .expectEvents(new PaymentSucceededEvent(SESSION, PAYMENT, new TransactionInfo(null, null, "A1", null),
                        AMOUNT, FEES.feeFor(AMOUNT), NOW));
    }
}
