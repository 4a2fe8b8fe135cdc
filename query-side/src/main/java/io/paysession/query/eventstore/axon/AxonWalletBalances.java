package io.paysession.query.eventstore.axon;

import io.paysession.query.settlement.WalletBalances;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Instant;

/**
 * {@link WalletBalances} with Axon's event store API only (Axon Server): an entry counts when its event is at or
 * before the position of the store's token at the instant ({@link EventStore#createTokenAt}), the position after
 * which the events stored at or after the instant begin. Unlike the JDBC adapter, which looks at each entry's own
 * event, this takes the store's order: an event stored just before the instant but placed after one stored at it
 * is not counted.
 */
public class AxonWalletBalances extends WalletBalances {

    private final EventStore eventStore;

    public AxonWalletBalances(JdbcTemplate jdbc, EventStore eventStore) {
        super(jdbc);
        this.eventStore = eventStore;
    }

    @Override
    protected StoredBy storedBy(Instant instant) {
        TrackingToken token = eventStore.createTokenAt(instant);
        long position = token == null ? -1 : token.position().orElse(-1);
        return new StoredBy("e.global_index <= ?", position);
    }
}
