package io.paysession.api.session.view;

import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.SessionEvent;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.paysession.api.session.SessionFixtures.successfulPayment;
import static org.assertj.core.api.Assertions.assertThat;

class SessionViewCacheTest {

    private final List<SessionEvent> events = successfulPayment(ApiVersion.V1);
    private final SessionViewCache cache = new SessionViewCache();
    private final AtomicInteger reads = new AtomicInteger();
    private final SessionViewCache.Source fromTheStore = (sessionId, sequence) -> {
        reads.incrementAndGet();
        return SessionViewFold.fold(events.subList(0, (int) sequence));
    };

    /** Another test class of this JVM may have left a unit of work open on this thread: none of ours may nest in it. */
    @BeforeEach
    void noUnitOfWorkLeftOpen() {
        while (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().rollback();
        }
    }

    @Test
    void eachEventIsFoldedOnceInAUnitOfWorkAndTheSessionBeforeTheNextCommandComesFromTheCache() {
        DefaultUnitOfWork.startAndGet(null).execute(() -> {
            SessionViewCache.Transition first = cache.transition(events.get(0), 0, fromTheStore);
            // a second projection of the same unit of work gets the same transition, folded once
            assertThat(cache.transition(events.get(0), 0, fromTheStore)).isSameAs(first);
            assertThat(cache.transition(events.get(1), 1, fromTheStore).before()).isSameAs(first.after());
        });
        DefaultUnitOfWork.startAndGet(null).execute(() -> {
            SessionViewCache.Transition third = cache.transition(events.get(2), 2, fromTheStore);
            assertThat(third.after()).isEqualTo(SessionViewFold.fold(events.subList(0, 3)));
        });

        assertThat(reads).hasValue(0);
        assertThat(cache.latestCommitted("ps_1").orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void aRolledBackUnitOfWorkLeavesNothingAndAMissAsksTheSource() {
        DefaultUnitOfWork.startAndGet(null).execute(() -> cache.transition(events.get(0), 0, fromTheStore));
        DefaultUnitOfWork<?> failed = DefaultUnitOfWork.startAndGet(null);
        cache.transition(events.get(1), 1, fromTheStore);
        failed.rollback();

        assertThat(cache.committedAt("ps_1", 1)).isEmpty();
        assertThat(cache.latestCommitted("ps_1").orElseThrow().version()).isZero();
        // event 2 needs the session at version 1, which no committed unit of work left here: the source is asked
        DefaultUnitOfWork.startAndGet(null).execute(() -> assertThat(cache.transition(events.get(2), 2, fromTheStore)
                .before()).isEqualTo(SessionViewFold.fold(events.subList(0, 2))));
        assertThat(reads).hasValue(1);
    }

    @Test
    void aProjectionLaggingBehindFindsTheOlderVersionsOfTheSession() {
        DefaultUnitOfWork.startAndGet(null).execute(() -> {
            for (int sequence = 0; sequence < events.size(); sequence++) {
                cache.transition(events.get(sequence), sequence, fromTheStore);
            }
        });

        for (int version = 0; version < events.size(); version++) {
            assertThat(cache.committedAt("ps_1", version)).get()
                    .isEqualTo(SessionViewFold.fold(events.subList(0, version + 1)));
        }
        // a tracking projection, in a later unit of work, at the session's second event
        DefaultUnitOfWork.startAndGet(null).execute(() -> assertThat(cache.known(events.get(1), 1)).get()
                .extracting(SessionViewCache.Transition::after).isEqualTo(SessionViewFold.fold(events.subList(0, 2))));
        assertThat(reads).hasValue(0);
    }

    @Test
    void theAnswerToACommandIsTheSessionAsItsOwnUnitOfWorkLeftIt() {
        GenericCommandMessage<String> command = new GenericCommandMessage<>("confirm");
        cache.expectAnswer(command.getIdentifier());
        DefaultUnitOfWork.startAndGet(command).execute(() -> {
            cache.transition(events.get(0), 0, fromTheStore);
            cache.transition(events.get(1), 1, fromTheStore);
        });
        // a later event (a rail's answer) does not change the command's answer
        DefaultUnitOfWork.startAndGet(null).execute(() -> cache.transition(events.get(2), 2, fromTheStore));

        assertThat(cache.takeAnswer(command.getIdentifier(), "ps_1")).get()
                .isEqualTo(SessionViewFold.fold(events.subList(0, 2)));
        assertThat(cache.takeAnswer(command.getIdentifier(), "ps_1")).as("taken once").isEmpty();
    }

    @Test
    void outsideAUnitOfWorkOnlyTheSourceIsAskedAndNothingIsKept() {
        assertThat(cache.transition(events.get(0), 0, fromTheStore).after().version()).isZero();
        assertThat(cache.latestCommitted("ps_1")).isEmpty();
        assertThat(cache.known(events.get(1), 1)).isEmpty();
    }
}
