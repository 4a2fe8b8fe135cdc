package io.paysession.query.settlement;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A partner's balance per currency as it stood at an instant ({@code wallet/balance}): the net of its settlement
 * entries settled by then, the same entries the reconciliation report sums, so the two agree. Entries of earlier days
 * count whole; those of the instant's own day count when their event was stored by the instant. What the settlement
 * projection has not handled yet (its position is behind the store by a moment) is not in it.
 */
@Component
public class WalletBalances {

    private final JdbcTemplate jdbc;

    public WalletBalances(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The net in minor units per currency (lower case), currencies in order; none when nothing settled. */
    public Map<String, Long> at(String project, Instant instant) {
        LocalDate day = instant.atZone(ZoneOffset.UTC).toLocalDate();
        Map<String, Long> balances = new LinkedHashMap<>();
        jdbc.query("""
                        select e.currency, sum(e.net) from settlement_entry e
                        where e.project = ? and (e.day < ? or e.day = ? and exists (
                            select 1 from domain_event_entry d
                            where d.global_index = e.global_index and cast(d.time_stamp as timestamptz) <= ?))
                        group by e.currency order by e.currency""",
                row -> {
                    balances.put(row.getString(1), row.getLong(2));
                },
                project, Date.valueOf(day), Date.valueOf(day), Timestamp.from(instant));
        return balances;
    }
}
