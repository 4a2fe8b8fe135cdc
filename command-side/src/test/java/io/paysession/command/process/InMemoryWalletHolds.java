package io.paysession.command.process;

import io.paysession.api.money.Money;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.SessionId;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link WalletHolds} in memory, over a settled balance the test sets per project and currency (what the settlement
 * entries would sum to), with the same rule as the JDBC one: a hold is taken when the balance less the holds covers it.
 */
final class InMemoryWalletHolds implements WalletHolds {

    private record Hold(String project, SessionId session, Money amount) {
    }

    private final Map<String, Long> settled = new HashMap<>();
    private final Map<PayoutId, Hold> holds = new LinkedHashMap<>();

    void settle(String project, Money net) {
        settled.merge(project + ":" + net.currencyCode(), net.minorUnits(), Long::sum);
    }

    Map<PayoutId, Hold> holds() {
        return holds;
    }

    @Override
    public synchronized boolean hold(String project, SessionId session, PayoutId payout, Money amount) {
        if (holds.containsKey(payout)) {
            return true;
        }
        long held = holds.values().stream().filter(hold -> hold.project().equals(project)
                && hold.amount().sameCurrencyAs(amount)).mapToLong(hold -> hold.amount().minorUnits()).sum();
        if (settled.getOrDefault(project + ":" + amount.currencyCode(), 0L) - held < amount.minorUnits()) {
            return false;
        }
        holds.put(payout, new Hold(project, session, amount));
        return true;
    }

    @Override
    public synchronized void release(PayoutId payout) {
        holds.remove(payout);
    }

    @Override
    public synchronized void releaseSession(SessionId session) {
        holds.values().removeIf(hold -> hold.session().equals(session));
    }

    @Override
    public synchronized void settledAt(PayoutId payout, long position) {
        Hold hold = holds.remove(payout);
        if (hold != null) {
            settle(hold.project(), new Money(-hold.amount().minorUnits(), hold.amount().currency()));
        }
    }
}
