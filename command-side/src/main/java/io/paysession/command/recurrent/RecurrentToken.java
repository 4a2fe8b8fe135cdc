package io.paysession.command.recurrent;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.recurrent.DisableRecurrentTokenCommand;
import io.paysession.api.recurrent.IssueRecurrentTokenCommand;
import io.paysession.api.recurrent.RecurrentTokenDisabledEvent;
import io.paysession.api.recurrent.RecurrentTokenIssuedEvent;
import io.paysession.api.recurrent.RecurrentTokenUsedEvent;
import io.paysession.api.recurrent.UseRecurrentTokenCommand;
import io.paysession.api.wire.WireFormat;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.spring.stereotype.Aggregate;

import java.time.Clock;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * A recurrent token: issued once by the payment that asked for it, usable by later payments of the same
 * project until the partner disables it. It lives apart from the session that created it.
 */
@Aggregate
public class RecurrentToken {

    @AggregateIdentifier
    private String token;
    private String project;
    private boolean disabled;

    protected RecurrentToken() {
        // for Axon: rebuilt from events
    }

    @CommandHandler
    public RecurrentToken(IssueRecurrentTokenCommand command) {
        apply(new RecurrentTokenIssuedEvent(command.token(), command.project(), command.sessionId(),
                command.paymentId(), command.source(), command.grantedAt()));
    }

    @CommandHandler
    public void handle(UseRecurrentTokenCommand command, Clock clock) {
        requireProject(command.project());
        if (disabled) {
            throw new PaymentsException(ErrorCode.RECURRENT_TOKEN_INACTIVE, "The recurrent token is disabled");
        }
        apply(new RecurrentTokenUsedEvent(token, command.sessionId(), command.paymentId(), WireFormat.now(clock)));
    }

    @CommandHandler
    public void handle(DisableRecurrentTokenCommand command, Clock clock) {
        requireProject(command.project());
        if (!disabled) {
            apply(new RecurrentTokenDisabledEvent(token, WireFormat.now(clock)));
        }
    }

    private void requireProject(String requester) {
        if (requester == null || !project.equals(requester)) {
            throw PaymentsException.invalidRequest("recurrent.token is not a recurrent token of this project");
        }
    }

    @EventSourcingHandler
    void on(RecurrentTokenIssuedEvent event) {
        token = event.token();
        project = event.project();
    }

    @EventSourcingHandler
    void on(RecurrentTokenDisabledEvent event) {
        disabled = true;
    }
}
