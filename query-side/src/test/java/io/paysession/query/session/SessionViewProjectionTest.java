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
import io.paysession.api.session.view.SessionViewCache;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.junit.jupiter.api.BeforeEach;
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

    /** Another test class of this JVM may have left a unit of work open on this thread: none of ours may nest in it. */
    @BeforeEach
    void noUnitOfWorkLeftOpen() {
        while (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().rollback();
        }
    }

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

    @Test
    void inACommandsUnitOfWorkTheViewIsWrittenWithoutBeingReadOnceTheCacheKnowsTheSession() {
        SessionViewCache cache = new SessionViewCache();
        SessionViewProjection cached = new SessionViewProjection(views, cache);
        // a command's unit of work: its events, then (after the commit) the next command's
        DefaultUnitOfWork.startAndGet(null).execute(() -> {
            cached.on(new SessionCreatedEvent(SESSION, "shop", ApiVersion.V2, PaymentData.EMPTY, null, T0), 0);
            cached.on(started(), 1);
        });
        DefaultUnitOfWork.startAndGet(null).execute(() ->
                cached.on(new PaymentReadyToConfirmEvent(SESSION, PAYMENT, T0.plusSeconds(2)), 2));

        assertThat(views.reads).isZero();
        assertThat(views.writes).isEqualTo(3);
        assertThat(views.find(SESSION.value()).orElseThrow().nextAction()).isEqualTo(NextAction.CONFIRM);
        assertThat(cache.latestCommitted(SESSION.value()).orElseThrow().version()).isEqualTo(2);

        // a unit of work that rolls back leaves the cache as it was: the next one reads the stored view
        DefaultUnitOfWork<?> failing = DefaultUnitOfWork.startAndGet(null);
        cached.on(new PaymentReadyToConfirmEvent(SESSION, PAYMENT, T0.plusSeconds(3)), 3);
        failing.rollback();
        assertThat(cache.latestCommitted(SESSION.value()).orElseThrow().version()).isEqualTo(2);
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
        private int reads;

        @Override
        public Optional<SessionView> find(String sessionId) {
            reads++;
            return Optional.ofNullable(byId.get(sessionId));
        }

        @Override
        public void save(SessionView view) {
            writes++;
            byId.put(view.id(), view);
        }
    }
}
