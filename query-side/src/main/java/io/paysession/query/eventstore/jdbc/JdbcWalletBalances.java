package io.paysession.query.eventstore.jdbc;

import io.paysession.query.settlement.WalletBalances;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.Timestamp;
import java.time.Instant;

/** {@link WalletBalances} on Axon's JDBC store: an entry counts when its event's row was stored by the instant. */
public class JdbcWalletBalances extends WalletBalances {

    public JdbcWalletBalances(JdbcTemplate jdbc) {
        super(jdbc);
    }

    @Override
    protected StoredBy storedBy(Instant instant) {
        return new StoredBy("""
                exists (select 1 from domain_event_entry d
                        where d.global_index = e.global_index and cast(d.time_stamp as timestamptz) <= ?)""",
                Timestamp.from(instant));
    }
}
