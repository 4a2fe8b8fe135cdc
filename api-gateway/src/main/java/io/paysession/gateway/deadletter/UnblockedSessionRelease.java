package io.paysession.gateway.deadletter;

import io.paysession.gateway.infra.PeriodicTask;
import org.springframework.stereotype.Component;

/**
 * Every {@code payments.dead-letters.release-interval}, handles the parked events that nothing blocks any
 * more ({@link AxonDeadLetters#releaseUnblocked}), so that a retry racing with the processor never leaves a
 * session's newest events parked behind nothing.
 */
@Component
class UnblockedSessionRelease extends PeriodicTask {

    private final AxonDeadLetters deadLetters;

    UnblockedSessionRelease(AxonDeadLetters deadLetters, DeadLetterProperties properties) {
        super("dead-letter-release", properties.releaseInterval());
        this.deadLetters = deadLetters;
    }

    @Override
    protected void runOnce() {
        for (String group : DeadLetteringProcessors.GROUPS) {
            deadLetters.releaseUnblocked(group);
        }
    }
}
