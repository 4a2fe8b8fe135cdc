package io.paysession.command.vault;

import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PaymentActionRequiredEvent;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewCache;
import io.paysession.api.session.view.SessionViewFold;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Erases a payment's security codes when the payment's use of them ends (PCI DSS 3.3.1.2: sensitive
 * authentication data is not kept after authorization): the acquirer has answered the authorization (paid,
 * held, declined, a payer action it now waits for, or no answer in time after the request went out: a query
 * asks about the request already made and sends no code), the payment failed before it (refused at the
 * pre-check), or the session was cancelled (by the partner, or by the confirmation or capture time limit).
 * <p>
 * Its processor is subscribing: the erasure commits in the transaction that stores the event, so no code
 * outlives the event that ends its use, and nothing replays it (erasing twice would be harmless anyway).
 * Codes that no event ends (a draft never started, a draft card replaced at start) are left to the sweeper,
 * which erases any code older than the longest confirmation window.
 */
@Component
@ProcessingGroup(SecurityCodeEraser.PROCESSING_GROUP)
public class SecurityCodeEraser {

    public static final String PROCESSING_GROUP = "security-code-eraser";

    private final CardVault vault;
    private final SessionViewCache views;
    private final EventStore events;

    @Autowired
    public SecurityCodeEraser(CardVault vault, ObjectProvider<SessionViewCache> views, EventStore events) {
        this(vault, views.getIfAvailable(SessionViewCache::new), events);
    }

    public SecurityCodeEraser(CardVault vault, SessionViewCache views, EventStore events) {
        this.vault = vault;
        this.views = views;
        this.events = events;
    }

    /** Without the session's view (the preload's sessions, each of one payment): the session's codes go. */
    public SecurityCodeEraser(CardVault vault) {
        this(vault, (SessionViewCache) null, null);
    }

    @EventHandler
    void on(PaymentSucceededEvent event, @SequenceNumber long sequence) {
        afterUse(event, event.paymentId(), sequence);
    }

    @EventHandler
    void on(PaymentAuthorizedEvent event, @SequenceNumber long sequence) {
        afterUse(event, event.paymentId(), sequence);
    }

    @EventHandler
    void on(PaymentFailedEvent event, @SequenceNumber long sequence) {
        afterUse(event, event.paymentId(), sequence);
    }

    @EventHandler
    void on(PaymentActionRequiredEvent event, @SequenceNumber long sequence) {
        afterUse(event, event.paymentId(), sequence);
    }

    @EventHandler
    void on(PaymentOutcomeUnknownEvent event, @SequenceNumber long sequence) {
        afterUse(event, event.paymentId(), sequence);
    }

    @EventHandler
    void on(SessionCancelledEvent event) {
        erase(event.sessionId());
    }

    /**
     * The use of {@code payment}'s code ended. A session of one payment: every code of the session goes (a draft's
     * card replaced at start too). A multi-session: the codes of that payment's card only, as its other payments may
     * not have been authorized yet.
     */
    private void afterUse(SessionEvent event, PaymentId payment, long sequence) {
        if (views == null) {
            erase(event.sessionId());
            return;
        }
        SessionView after = views.transition(event, sequence, this::viewBefore).after();
        if (!after.multi()) {
            erase(event.sessionId());
            return;
        }
        after.payment(payment.value()).map(view -> view.data().method())
                .filter(CardMethod.class::isInstance).map(CardMethod.class::cast)
                .ifPresent(card -> vault.eraseSecurityCode(card.vaultToken()));
    }

    private SessionView viewBefore(String sessionId, long sequence) {
        return SessionViewFold.before(events.readEvents(sessionId, 0L), sequence);
    }

    private void erase(SessionId sessionId) {
        vault.eraseSecurityCodesOfSession(sessionId.value());
    }
}
