package io.paysession.command.rails;

import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.SessionId;

/** What a payout bank is asked to do; the payout id is its idempotency key. */
public record PayoutOperation(SessionId sessionId, PayoutId payoutId, PayoutData payout) {
}
