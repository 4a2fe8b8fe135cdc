package io.paysession.command.partner;

import io.paysession.api.partner.PartnerId;
import io.paysession.api.partner.PartnerRegisteredEvent;
import io.paysession.api.partner.PartnerUpdatedEvent;
import io.paysession.api.partner.RegisterPartnerCommand;
import io.paysession.api.partner.UpdatePartnerCommand;
import io.paysession.api.wire.WireFormat;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

import java.time.Clock;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * A partner's registration. Event-sourced like everything else, so that the partner directory, the
 * webhook endpoints and an audit can all be rebuilt from the event store. Registering a project twice
 * fails in the event store (the stream already exists).
 */
@Aggregate
public class Partner {

    @AggregateIdentifier
    private PartnerId partnerId;

    protected Partner() {
        // for Axon: rebuilt from events
    }

    @CommandHandler
    public Partner(RegisterPartnerCommand command, Clock clock) {
        apply(new PartnerRegisteredEvent(command.partnerId(), command.settings(), WireFormat.now(clock)));
    }

    @CommandHandler
    public void handle(UpdatePartnerCommand command, Clock clock) {
        apply(new PartnerUpdatedEvent(partnerId, command.settings(), WireFormat.now(clock)));
    }

    @EventSourcingHandler
    void on(PartnerRegisteredEvent event) {
        partnerId = event.partnerId();
    }
}
