package io.paysession.command.recurrent;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.recurrent.DisableRecurrentTokenCommand;
import io.paysession.api.recurrent.IssueRecurrentTokenCommand;
import io.paysession.api.recurrent.RecurrentTokenDisabledEvent;
import io.paysession.api.recurrent.RecurrentTokenIssuedEvent;
import io.paysession.api.recurrent.RecurrentTokenUsedEvent;
import io.paysession.api.recurrent.UseRecurrentTokenCommand;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.SessionId;
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

class RecurrentTokenTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00.000001Z");
    private static final String TOKEN = "rt_0123456789abcdef0123456789abcdef";
    private static final CardMethod CARD = new CardMethod("card_1", "visa", "424242", "4242");
    private static final SessionId FIRST = SessionId.of("ps_1");
    private static final SessionId LATER = SessionId.of("ps_2");
    private static final RecurrentTokenIssuedEvent ISSUED = new RecurrentTokenIssuedEvent(TOKEN, "shop", FIRST,
            PaymentId.of("pm_1"), CARD, NOW);

    private FixtureConfiguration<RecurrentToken> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(RecurrentToken.class);
        fixture.registerInjectableResource(Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static Matcher<Throwable> refusedWith(ErrorCode code) {
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

    @Test
    void aGrantedTokenIsIssuedForItsProjectAndSource() {
        fixture.givenNoPriorActivity()
                .when(new IssueRecurrentTokenCommand(TOKEN, "shop", FIRST, PaymentId.of("pm_1"), CARD, NOW))
                .expectEvents(ISSUED);
    }

    @Test
    void anActiveTokenPaysALaterPayment() {
        fixture.given(ISSUED)
                .when(new UseRecurrentTokenCommand(TOKEN, LATER, PaymentId.of("pm_2"), "shop"))
                .expectEvents(new RecurrentTokenUsedEvent(TOKEN, LATER, PaymentId.of("pm_2"), NOW));
    }

    @Test
    void aDisabledTokenIsRefusedAsInactive() {
        fixture.given(ISSUED, new RecurrentTokenDisabledEvent(TOKEN, NOW))
                .when(new UseRecurrentTokenCommand(TOKEN, LATER, PaymentId.of("pm_2"), "shop"))
                .expectException(refusedWith(ErrorCode.RECURRENT_TOKEN_INACTIVE))
                .expectNoEvents();
    }

    @Test
    void aPaymentOfAnotherProjectCannotUseTheToken() {
        fixture.given(ISSUED)
                .when(new UseRecurrentTokenCommand(TOKEN, LATER, PaymentId.of("pm_2"), "intruder"))
                .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                .expectNoEvents();
        fixture.given(ISSUED)
                .when(new UseRecurrentTokenCommand(TOKEN, LATER, PaymentId.of("pm_2"), null))
                .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                .expectNoEvents();
    }

    @Test
    void thePartnerDisablesItsTokenOnce() {
        fixture.given(ISSUED)
                .when(new DisableRecurrentTokenCommand(TOKEN, "shop"))
                .expectEvents(new RecurrentTokenDisabledEvent(TOKEN, NOW));
        fixture.given(ISSUED, new RecurrentTokenDisabledEvent(TOKEN, NOW))
                .when(new DisableRecurrentTokenCommand(TOKEN, "shop"))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void anotherProjectCannotDisableTheToken() {
        fixture.given(ISSUED)
                .when(new DisableRecurrentTokenCommand(TOKEN, "intruder"))
                .expectException(refusedWith(ErrorCode.INVALID_REQUEST))
                .expectNoEvents();
    }
}
