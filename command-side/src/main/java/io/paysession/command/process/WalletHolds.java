package io.paysession.command.process;

import io.paysession.api.money.Money;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.SessionId;

/**
 * The partner's balance, held against the payouts it funds (a partner with {@code payout_from_balance}). A payout
 * takes a hold when it starts, if what is left of the balance covers it; the hold goes when the payout fails or is
 * cancelled, and when it succeeds it stays until the payout's own settlement entry is in the balance, so that the
 * money is never counted twice nor not at all. Each method joins the caller's transaction.
 */
public interface WalletHolds {

    /**
     * Holds {@code amount} of the project's balance in its currency for the payout; false (and nothing held) when
     * the balance less the holds is below it. A payout held before (its event handled again) stays held: true.
     */
    boolean hold(String project, SessionId session, PayoutId payout, Money amount);

    /** The payout failed or was cancelled: its hold goes. */
    void release(PayoutId payout);

    /** The payout's session was cancelled: the holds of its payouts go. */
    void releaseSession(SessionId session);

    /**
     * The payout succeeded by the event at {@code position} in the store: its hold goes once the balance's settlement
     * is past it.
     */
    void settledAt(PayoutId payout, long position);
}
