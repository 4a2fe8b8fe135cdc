package io.paysession.gateway.idempotency;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Deletes forgotten keys and request signatures now and then. A key or signature past its lifetime is already
 * treated as unknown whether or not it is deleted, so this only keeps the tables small; db-scheduler runs it on one
 * node at a time.
 */
@Configuration
public class IdempotencyPurge {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyPurge.class);

    @Bean
    RecurringTask<Void> idempotencyKeyPurge(IdempotencyStore store, SignatureUses signatures,
                                            IdempotencyProperties properties) {
        return Tasks.recurring("idempotency-key-purge", FixedDelay.of(properties.purgeInterval()))
                .execute((instance, context) -> {
                    int purged = store.purgeExpired();
                    int uses = signatures.purgeExpired();
                    if (purged > 0 || uses > 0) {
                        log.debug("Forgot {} idempotency keys and {} request signatures past their lifetime", purged,
                                uses);
                    }
                });
    }
}
