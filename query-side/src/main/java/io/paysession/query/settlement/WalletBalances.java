package io.paysession.query.settlement;

import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.Date;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A partner's balance per currency as it stood at an instant ({@code wallet/balance}): the net of its settlement
 * entries settled by then, the same entries the reconciliation report sums, so the two agree. Entries of earlier days
 * count whole; those of the instant's own day count when their event was stored by the instant, which only the event
 * store can tell: the adapters ({@code io.paysession.query.eventstore.jdbc} and {@code ...axon}) give the condition on
 * an entry {@code e} of {@code settlement_entry}. What the settlement projection has not handled yet (its position is
 * behind the store by a moment) is not in it.
 */
public abstract class WalletBalances {

    /** A condition on the entry {@code e} with its one parameter. */
    public record StoredBy(String condition, Object parameter) {
    }

    private final JdbcTemplate jdbc;

    protected WalletBalances(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Which entries' events were stored by {@code instant}. */
    protected abstract StoredBy storedBy(Instant instant);

    /** The net in minor units per currency (lower case), currencies in order; none when nothing settled. */
    public Map<String, Long> at(String project, Instant instant) {
        LocalDate day = instant.atZone(ZoneOffset.UTC).toLocalDate();
        StoredBy storedBy = storedBy(instant);
        Map<String, Long> balances = new LinkedHashMap<>();
        jdbc.query("select e.currency, sum(e.net) from settlement_entry e where e.project = ? and (e.day < ? or e.day = ?"
                        + " and " + storedBy.condition() + ") group by e.currency order by e.currency",
                row -> {
                    balances.put(row.getString(1), row.getLong(2));
                },
                project, Date.valueOf(day), Date.valueOf(day), storedBy.parameter());
        return balances;
    }
}
