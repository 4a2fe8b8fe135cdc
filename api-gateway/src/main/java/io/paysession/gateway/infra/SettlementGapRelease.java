package io.paysession.gateway.infra;

import io.paysession.api.node.NodeRoles;
import io.paysession.query.settlement.SettlementStore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.time.Duration;

/**
 * Once a second, moves the reconciliation report's position past gaps older than the gap time-out
 * ({@link SettlementStore#giveUpGaps}): the settlement processor does so after each event, and this covers
 * the time no event arrives, as after a restart that followed a crash.
 */
@Component
@ConditionalOnExpression(NodeRoles.RUNS_PROJECTIONS)
class SettlementGapRelease extends PeriodicTask {

    private final SettlementStore settlement;
    private final Duration gapTimeout;

    SettlementGapRelease(JdbcTemplate jdbc, EventStoreGaps.GapProperties gaps) {
        super("settlement-gap-release", Duration.ofSeconds(1));
        this.settlement = new SettlementStore(jdbc, "settlement");
        this.gapTimeout = gaps.gapTimeout();
    }

    @Override
    protected void runOnce() {
        settlement.giveUpGaps(gapTimeout);
    }
}
