package io.paysession.query.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.FindSessionQuery;
import io.paysession.api.session.NextAction;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.view.SessionView;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class SessionViewProjectionTest {

    private static final SessionId SESSION = SessionId.of("ps_5");
    private static final PaymentId PAYMENT = PaymentId.of("pm_9");
    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00.000001Z");

    private final InMemoryViews views = new InMemoryViews();
    private final SessionViewProjection projection = new SessionViewProjection(views);

    @Test
    void eachEventIsFoldedIntoTheStoredViewAndAnsweredByTheQuery() {
        projection.on(new SessionCreatedEvent(SESSION, "shop", ApiVersion.V2, PaymentData.EMPTY, null, T0), 0);
        projection.on(started(), 1);
        projection.on(new PaymentReadyToConfirmEvent(SESSION, PAYMENT, T0.plusSeconds(2)), 2);

        SessionView view = projection.handle(new FindSessionQuery(SESSION)).orElseThrow();
        assertThat(view.status()).isEqualTo(SessionStatus.IN_PROGRESS);
        assertThat(view.nextAction()).isEqualTo(NextAction.CONFIRM);
        assertThat(view.payments()).singleElement()
                .satisfies(payment -> assertThat(payment.state()).isEqualTo(OperationState.AWAITING_CONFIRMATION));
        assertThat(view.version()).isEqualTo(2);
        assertThat(view.updatedAt()).isEqualTo(T0.plusSeconds(2));
    }

    @Test
    void anEventTheViewAlreadyHoldsIsNotFoldedTwice() {
        projection.on(new SessionCreatedEvent(SESSION, "shop", ApiVersion.V1, PaymentData.EMPTY, null, T0), 0);
        projection.on(started(), 1);
        int writes = views.writes;

        projection.on(started(), 1);
        projection.on(new SessionCreatedEvent(SESSION, "shop", ApiVersion.V1, PaymentData.EMPTY, null, T0), 0);

        assertThat(views.writes).isEqualTo(writes);
        assertThat(views.find(SESSION.value()).orElseThrow().payments()).hasSize(1);
    }

    @Test
    void anUnknownSessionIsNotFound() {
        assertThat(projection.handle(new FindSessionQuery(SessionId.of("ps_404")))).isEmpty();
    }

    private static PaymentStartedEvent started() {
        PaymentData data = new PaymentData(new CardMethod("card_1", "visa", "424242", "4242"),
                Money.of(500, "eur"), JsonNodeFactory.instance.objectNode().put("reference", "c1"),
                null, null, null, null);
        return new PaymentStartedEvent(SESSION, PAYMENT, data,
                new PartnerTerms(CaptureMode.AUTO, FeeSchedule.NONE), T0.plusSeconds(1));
    }

    private static final class InMemoryViews implements SessionViewRepository {
        private final Map<String, SessionView> byId = new HashMap<>();
        private int writes;

        @Override
        public Optional<SessionView> find(String sessionId) {
            return Optional.ofNullable(byId.get(sessionId));
        }

        @Override
        public void save(SessionView view) {
            writes++;
            byId.put(view.id(), view);
        }
    }
}
