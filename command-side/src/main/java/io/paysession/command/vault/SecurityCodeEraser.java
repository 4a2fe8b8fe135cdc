package io.paysession.command.vault;

import io.paysession.api.session.PaymentActionRequiredEvent;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionId;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.stereotype.Component;

/**
 * Erases a session's security codes when the payment's use of them ends (PCI DSS 3.3.1.2: sensitive
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

    public SecurityCodeEraser(CardVault vault) {
        this.vault = vault;
    }

    @EventHandler
    void on(PaymentSucceededEvent event) {
        erase(event.sessionId());
    }

    @EventHandler
    void on(PaymentAuthorizedEvent event) {
        erase(event.sessionId());
    }

    @EventHandler
    void on(PaymentFailedEvent event) {
        erase(event.sessionId());
    }

    @EventHandler
    void on(PaymentActionRequiredEvent event) {
        erase(event.sessionId());
    }

    @EventHandler
    void on(PaymentOutcomeUnknownEvent event) {
        erase(event.sessionId());
    }

    @EventHandler
    void on(SessionCancelledEvent event) {
        erase(event.sessionId());
    }

    private void erase(SessionId sessionId) {
        vault.eraseSecurityCodesOfSession(sessionId.value());
    }
}
