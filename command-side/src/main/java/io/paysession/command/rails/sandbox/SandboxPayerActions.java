package io.paysession.command.rails.sandbox;

import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.command.process.ProcessCommandSender;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;

/**
 * The payer's answer on a hosted page, turned into the rail's callback: the rail decides the payment's
 * outcome and the outcome is recorded on the session, as a real provider's notification would be.
 */
@Component
@ConditionalOnSandboxRails
public class SandboxPayerActions {

    public enum Result { APPROVED, DECLINED, NOT_OPEN, UNKNOWN }

    private final SandboxInteractions interactions;
    private final List<PayerDecisions> rails;
    private final ProcessCommandSender commands;
    private final SandboxLedger ledger;

    public SandboxPayerActions(SandboxInteractions interactions, List<PayerDecisions> rails,
                               ProcessCommandSender commands, SandboxLedger ledger) {
        this.interactions = interactions;
        this.rails = List.copyOf(rails);
        this.commands = commands;
        this.ledger = ledger;
    }

    public Optional<SandboxInteractions.Interaction> find(String interactionId) {
        return interactions.find(interactionId);
    }

    /**
     * Approves or declines a payer action once. An interaction that is no longer open (already answered,
     * or its payment timed out or was cancelled) changes nothing.
     */
    public Result resolve(String interactionId, boolean approved) {
        Optional<SandboxInteractions.Interaction> found = interactions.find(interactionId);
        if (found.isEmpty()) {
            return Result.UNKNOWN;
        }
        if (!interactions.claim(interactionId)) {
            return Result.NOT_OPEN;
        }
        SandboxInteractions.Interaction interaction = found.get();
        AuthorizationOutcome outcome = rails.stream().filter(rail -> rail.decides(interaction.kind())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no sandbox rail decides " + interaction.kind()))
                .afterPayer(interaction, approved);
        boolean paid;
        try {
            // the rail's verdict is bound first: a query from now on answers it, whatever happens to the callback;
            // a verdict bound by an earlier attempt whose callback failed stays the verdict
            AuthorizationOutcome bound = ledger.settle(SandboxLedger.Kind.AUTHORIZE,
                    interaction.operation().paymentId().value(), outcome, "payer_action_required",
                    AuthorizationOutcome.class);
            paid = !(bound instanceof AuthorizationOutcome.Declined);
            boolean applied = commands.sendAndReport(new RecordPaymentAuthorizationCommand(
                    interaction.operation().sessionId(), interaction.operation().paymentId(), bound));
            if (!applied) {
                interactions.finish(interactionId, SandboxInteractions.State.CLOSED);
                return Result.NOT_OPEN;
            }
        } catch (RuntimeException e) {
            interactions.reopen(interactionId);
            throw e;
        }
        interactions.finish(interactionId, paid ? SandboxInteractions.State.APPROVED
                : SandboxInteractions.State.DECLINED);
        return paid ? Result.APPROVED : Result.DECLINED;
    }
}
