package io.paysession.command.process;

import io.paysession.api.money.Money;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.SessionId;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Clock;

/**
 * {@link WalletHolds} in {@code wallet_hold}, against the balance the reconciliation report shows: the net of the
 * project's settlement entries in the currency ({@code settlement_entry}, the query side's settlement projection,
 * read here as the report reads it). Holds of one project and currency are decided one at a time (a transaction-scoped
 * advisory lock), so two payouts never both take the last of the balance. A succeeded payout's hold is counted until
 * the settlement position passes its success, after which its entry is in the net and the hold is deleted.
 */
@Component
public class JdbcWalletHolds implements WalletHolds {

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public JdbcWalletHolds(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    @Override
    public boolean hold(String project, SessionId session, PayoutId payout, Money amount) {
        String currency = amount.currencyCode();
        jdbc.queryForList("select pg_advisory_xact_lock(hashtext(?))", "wallet:" + project + ":" + currency);
        Integer held = jdbc.queryForObject("select count(*) from wallet_hold where payout_id = ?", Integer.class,
                payout.value());
        if (held != null && held > 0) {
            return true;
        }
        long position = settlementPosition();
        jdbc.update("delete from wallet_hold where project = ? and currency = ? and settled_index <= ?", project,
                currency, position);
        Long settled = jdbc.queryForObject("""
                select coalesce(sum(net), 0) from settlement_entry where project = ? and currency = ?""", Long.class,
                project, currency);
        Long holds = jdbc.queryForObject("""
                select coalesce(sum(amount_minor), 0) from wallet_hold
                where project = ? and currency = ? and (settled_index is null or settled_index > ?)""", Long.class,
                project, currency, position);
        if ((settled == null ? 0 : settled) - (holds == null ? 0 : holds) < amount.minorUnits()) {
            return false;
        }
        jdbc.update("""
                        insert into wallet_hold (payout_id, session_id, project, currency, amount_minor, created_at)
                        values (?, ?, ?, ?, ?, ?)""",
                payout.value(), session.value(), project, currency, amount.minorUnits(),
                Timestamp.from(clock.instant()));
        return true;
    }

    @Override
    public void release(PayoutId payout) {
        jdbc.update("delete from wallet_hold where payout_id = ?", payout.value());
    }

    @Override
    public void releaseSession(SessionId session) {
        jdbc.update("delete from wallet_hold where session_id = ? and settled_index is null", session.value());
    }

    /** The event's position in the store, the one the settlement projection records for the payout's entry. */
    @Override
    public void settledAt(PayoutId payout, long position) {
        jdbc.update("update wallet_hold set settled_index = ? where payout_id = ?", position, payout.value());
    }

    private long settlementPosition() {
        Long position = jdbc.query("select global_index from settlement_position where id = 1",
                rows -> rows.next() ? rows.getLong(1) : 0L);
        return position == null ? 0 : position;
    }
}
