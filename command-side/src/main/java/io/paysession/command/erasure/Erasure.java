package io.paysession.command.erasure;

import io.paysession.api.erasure.ErasureRequestedEvent;
import io.paysession.api.erasure.RequestErasureCommand;
import io.paysession.api.wire.WireFormat;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

import java.time.Clock;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * An erasure of one customer's personal data, as the record of who asked for it and when (docs/erasure.md): its own
 * stream, one event. What it erased is not in it: the keys are gone, and each session records its own
 * {@code PersonalDataErasedEvent}. Recording an erasure id twice fails in the event store.
 */
@Aggregate
public class Erasure {

    @AggregateIdentifier
    private String erasureId;

    protected Erasure() {
        // for Axon: rebuilt from events
    }

    @CommandHandler
    public Erasure(RequestErasureCommand command, Clock clock) {
        apply(new ErasureRequestedEvent(command.erasureId(), command.project(), command.sessions(),
                command.requestedBy(), WireFormat.now(clock)));
    }

    @EventSourcingHandler
    void on(ErasureRequestedEvent event) {
        erasureId = event.erasureId();
    }
}
