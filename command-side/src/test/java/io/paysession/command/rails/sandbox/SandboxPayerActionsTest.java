package io.paysession.command.rails.sandbox;

import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.SessionId;
import io.paysession.command.process.ProcessCommandSender;
import io.paysession.command.rails.RailOperation;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;

/**
 * The payer's verdict on a hosted page is the rail's callback: it binds the payment's answer in the sandbox's
 * ledger (a query from then on answers the verdict, not the pending payer action), and a verdict bound by an
 * attempt whose recording failed stays the verdict when the payer tries again.
 */
class SandboxPayerActionsTest {

    private final SandboxRailsOnPostgres sandbox = SandboxRailsOnPostgres.get();
    private final SandboxCardAcquirer acquirer = sandbox.cardAcquirer();
    private final List<Object> recorded = new CopyOnWriteArrayList<>();
    private final AtomicBoolean storeDown = new AtomicBoolean();
    private final ProcessCommandSender commands = new ProcessCommandSender(gateway());
    private final SandboxPayerActions actions = new SandboxPayerActions(sandbox.interactions(), List.of(acquirer),
            commands, sandbox.ledger());

    @AfterEach
    void stop() {
        commands.destroy();
    }

    @Test
    void theVerdictOfThePayerIsWhatTheRailAnswersFromThenOn() throws Exception {
        RailOperation payment = threeDSecurePayment();
        String interaction = interactionOf(answer(acquirer.authorize(payment)));

        assertThat(actions.resolve(interaction, true)).isEqualTo(SandboxPayerActions.Result.APPROVED);

        AuthorizationOutcome queried = answer(acquirer.queryOutcome(payment));
        assertThat(queried).isInstanceOf(AuthorizationOutcome.Approved.class);
        assertThat(recorded).singleElement().isEqualTo(new RecordPaymentAuthorizationCommand(payment.sessionId(),
                payment.paymentId(), queried));
    }

    @Test
    void aVerdictWhoseRecordingFailedStaysTheVerdictWhenThePayerTriesAgain() throws Exception {
        RailOperation payment = threeDSecurePayment();
        String interaction = interactionOf(answer(acquirer.authorize(payment)));
        storeDown.set(true);
        assertThatThrownBy(() -> actions.resolve(interaction, true)).isInstanceOf(IllegalStateException.class);
        storeDown.set(false);

        SandboxPayerActions.Result again = actions.resolve(interaction, false);

        AuthorizationOutcome bound = answer(acquirer.queryOutcome(payment));
        assertThat(bound).isInstanceOf(AuthorizationOutcome.Approved.class);
        assertThat(again).isEqualTo(SandboxPayerActions.Result.APPROVED);
        assertThat(recorded).last().isEqualTo(new RecordPaymentAuthorizationCommand(payment.sessionId(),
                payment.paymentId(), bound));
    }

    private RailOperation threeDSecurePayment() {
        long id = sandbox.nextId();
        return new RailOperation(SessionId.of(id), PaymentId.of(id), new RailOrder(
                sandbox.card(SandboxTestCards.THREE_D_SECURE), Money.of(10_000, "rub"), CaptureMode.AUTO, null));
    }

    private static String interactionOf(AuthorizationOutcome pending) {
        assertThat(pending).isInstanceOf(AuthorizationOutcome.PayerActionRequired.class);
        String url = ((CustomerInteraction.Redirect) ((AuthorizationOutcome.PayerActionRequired) pending)
                .interaction()).url();
        return url.substring(url.lastIndexOf('/') + 1);
    }

    private static <T> T answer(java.util.concurrent.CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private CommandGateway gateway() {
        CommandGateway gateway = mock(CommandGateway.class);
        doAnswer(invocation -> {
            if (storeDown.get()) {
                throw new IllegalStateException("the event store is down");
            }
            recorded.add(invocation.getArgument(0));
            return null;
        }).when(gateway).sendAndWait(any());
        return gateway;
    }
}
