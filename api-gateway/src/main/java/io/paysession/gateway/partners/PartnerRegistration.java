package io.paysession.gateway.partners;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.partner.PartnerSettings;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.partner.RegisterPartnerCommand;
import io.paysession.api.partner.UpdatePartnerCommand;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.stereotype.Component;

/** Registers and updates partners through the Partner aggregate; reads them back from the directory. */
@Component
public class PartnerRegistration {

    private final CommandGateway commands;
    private final PartnerDirectory directory;

    public PartnerRegistration(CommandGateway commands, PartnerDirectory directory) {
        this.commands = commands;
        this.directory = directory;
    }

    public PartnerView register(String project, PartnerSettings settings) {
        if (directory.find(project).isPresent()) {
            throw alreadyRegistered(project);
        }
        try {
            commands.sendAndWait(new RegisterPartnerCommand(PartnerId.of(project), settings));
            directory.forget(project);
        } catch (AggregateStreamCreationException | ConcurrencyException e) {
            // a concurrent registration of the same project won the race
            throw alreadyRegistered(project);
        }
        return directory.find(project).orElseThrow();
    }

    public PartnerView update(String project, PartnerSettings settings) {
        try {
            commands.sendAndWait(new UpdatePartnerCommand(PartnerId.of(project), settings));
        } finally {
            directory.forget(project);
        }
        return directory.find(project).orElseThrow();
    }

    private static PaymentsException alreadyRegistered(String project) {
        return new PaymentsException(ErrorCode.INVALID_REQUEST,
                "Project " + project + " is already registered; update it with PUT /admin/v1/partners/" + project);
    }
}
