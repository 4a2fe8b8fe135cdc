package io.paysession.command.process;

import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.command.rails.CardAcquirer;
import io.paysession.command.rails.CardOperation;
import io.paysession.command.rails.PrecheckResult;
import io.paysession.command.vault.CardVault;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Drives card payments through the acquirer: a started payment is pre-checked, a confirmed one is
 * authorized, and each answer goes back to the Session as a command. It runs on a streaming processor,
 * so its position advances only after the answer is recorded: a crash or restart in between makes it ask
 * the rail again (with the same operation id) rather than lose the answer. Replays never call rails.
 */
@Component
@ProcessingGroup(CardPaymentProcess.PROCESSING_GROUP)
@DisallowReplay
public class CardPaymentProcess {

    public static final String PROCESSING_GROUP = "card-payments";

    private final CardAcquirer acquirer;
    private final CardVault vault;
    private final ProcessCommandSender commands;
    private final Duration railTimeout;

    public CardPaymentProcess(CardAcquirer acquirer, CardVault vault, ProcessCommandSender commands,
                              @Value("${payments.rails.card-answer-timeout:60s}") Duration railTimeout) {
        this.acquirer = acquirer;
        this.vault = vault;
        this.commands = commands;
        this.railTimeout = railTimeout;
    }

    @EventHandler
    void on(PaymentStartedEvent event) {
        if (!(event.payment().method() instanceof CardMethod card)) {
            return;
        }
        PrecheckResult result = await(acquirer.precheck(
                new CardOperation(event.paymentId().value(), card.vaultToken(), event.payment().amount())));
        if (result instanceof PrecheckResult.Refused refused) {
            commands.send(new RefusePaymentCommand(event.sessionId(), event.paymentId(), refused.reason()));
        } else {
            commands.send(new MarkPaymentReadyToConfirmCommand(event.sessionId(), event.paymentId()));
        }
    }

    @EventHandler
    void on(PaymentConfirmedEvent event) {
        if (!(event.method() instanceof CardMethod card)) {
            return;
        }
        AuthorizationOutcome outcome = await(acquirer.authorize(
                new CardOperation(event.paymentId().value(), card.vaultToken(), event.amount())));
        commands.send(new RecordPaymentAuthorizationCommand(event.sessionId(), event.paymentId(), outcome));
        vault.eraseSecurityCode(card.vaultToken());
    }

    private <T> T await(CompletionStage<T> answer) {
        try {
            return answer.toCompletableFuture().get(railTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the card rail", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the card rail failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the card rail did not answer within " + railTimeout, e);
        }
    }
}
