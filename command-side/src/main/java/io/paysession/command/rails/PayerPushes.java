package io.paysession.command.rails;

import io.paysession.api.session.PaymentId;
import io.paysession.api.session.SessionId;

import java.util.concurrent.CompletionStage;

/**
 * The port of the QR-code application's payer notifications ({@code sberpay/push}): asks the application's
 * provider to send the payer a push or SMS about a payment that waits for them in the application. The engine
 * checks before the call that the session's payment is a QR-application payment waiting for its payer. Moves no
 * money and changes no state: a failed push may simply be asked again. Optional: without an adapter the call is
 * refused ({@code invalid_request}).
 */
public interface PayerPushes {

    /**
     * Completes when the provider took the notification for {@code phone} (digits, 10 to 15); fails when it did
     * not. Must not block the calling thread.
     */
    CompletionStage<Void> push(SessionId session, PaymentId payment, String phone);
}
