package io.paysession.command.process;

import io.paysession.api.recurrent.IssueRecurrentTokenCommand;
import io.paysession.api.session.RecurrentTokenGrantedEvent;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A token a session granted becomes a token of its own. Issuing is idempotent: a token that exists
 * already (the grant handled a second time after a restart) is left as it is.
 */
@Component
@ProcessingGroup(PaymentProcess.PROCESSING_GROUP)
@DisallowReplay
public class RecurrentTokenProcess {

    private static final Logger log = LoggerFactory.getLogger(RecurrentTokenProcess.class);

    private final ProcessCommandSender commands;

    public RecurrentTokenProcess(ProcessCommandSender commands) {
        this.commands = commands;
    }

    @EventHandler
    void on(RecurrentTokenGrantedEvent event) {
        try {
            commands.send(new IssueRecurrentTokenCommand(event.token(), event.project(), event.sessionId(),
                    event.paymentId(), event.source(), event.occurredAt()));
        } catch (AggregateStreamCreationException e) {
            log.info("Recurrent token of {} exists already", event.paymentId());
        }
    }
}
