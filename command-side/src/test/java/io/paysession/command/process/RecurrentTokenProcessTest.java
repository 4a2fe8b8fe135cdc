package io.paysession.command.process;

import io.paysession.api.recurrent.IssueRecurrentTokenCommand;
import io.paysession.api.recurrent.RecurrentTokenDisabledEvent;
import io.paysession.api.recurrent.RecurrentTokenIssuedEvent;
import io.paysession.api.session.EndRecurrentGrantCommand;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.RecurrentTokenGrantedEvent;
import io.paysession.api.session.SessionId;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link RecurrentTokenProcess} on its own, with Axon's recording command bus in place of the token aggregate: a
 * token a session granted is issued as a token of its own, once; a grant handled again finds it issued and leaves
 * it be.
 */
class RecurrentTokenProcessTest {

    private static final SessionId SESSION = SessionId.of("ps_31");
    private static final PaymentId PAYMENT = PaymentId.of("pm_32");
    private static final CardMethod CARD = new CardMethod("card_" + "5".repeat(32), "mastercard", "555555", "4444");
    private static final Instant GRANTED_AT = Instant.parse("2026-11-25T10:00:00Z");
    private static final RecurrentTokenGrantedEvent GRANTED = new RecurrentTokenGrantedEvent(SESSION, PAYMENT,
            "rt_33", "shop", CARD, GRANTED_AT);

    private final RecordingCommands commands = new RecordingCommands();
    private final EmbeddedEventStore store = EmbeddedEventStore.builder()
            .storageEngine(new InMemoryEventStorageEngine()).build();
    private final RecurrentTokenProcess process = new RecurrentTokenProcess(commands.sender(), store);

    @AfterEach
    void stop() {
        commands.close();
        store.shutDown();
    }

    @Test
    void aDisabledTokenIsShownFinishedOnThePaymentThatGrantedItAtTheTimeItWasDisabled() {
        Instant disabledAt = GRANTED_AT.plusSeconds(3_600);
        store.publish(new GenericDomainEventMessage<>("RecurrentToken", "rt_33", 0,
                new RecurrentTokenIssuedEvent("rt_33", "shop", SESSION, PAYMENT, CARD, GRANTED_AT)));

        process.on(new RecurrentTokenDisabledEvent("rt_33", disabledAt));

        assertThat(commands.sent()).containsExactly(new EndRecurrentGrantCommand(SESSION, PAYMENT, "rt_33",
                disabledAt));
    }

    @Test
    void aTokenWithoutItsIssueInTheStoreEndsNoGrant() {
        process.on(new RecurrentTokenDisabledEvent("rt_unknown", GRANTED_AT));

        assertThat(commands.sent()).isEmpty();
    }

    @Test
    void aGrantedTokenIsIssuedForItsProjectWithThePaymentsOriginalMethodAndTheTimeOfTheGrant() {
        process.on(GRANTED);

        assertThat(commands.sent()).containsExactly(
                new IssueRecurrentTokenCommand("rt_33", "shop", SESSION, PAYMENT, CARD, GRANTED_AT));
    }

    @Test
    void aGrantHandledAgainAfterTheTokenWasIssuedLeavesTheTokenAsItIs() {
        commands.refuseNext(IssueRecurrentTokenCommand.class,
                new AggregateStreamCreationException("an aggregate with the identifier rt_33 exists already"));

        process.on(GRANTED);

        assertThat(commands.sent()).hasSize(1);
    }

    @Test
    void anyOtherFailureOfTheIssueFailsTheEventSoThatTheProcessorTriesAgain() {
        commands.refuseNext(IssueRecurrentTokenCommand.class, new IllegalStateException("the event store is down"));

        assertThatThrownBy(() -> process.on(GRANTED)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("event store is down");

        process.on(GRANTED);
        assertThat(commands.sent()).hasSize(2);
    }
}
