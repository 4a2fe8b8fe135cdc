package io.paysession.command.process;

import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.SessionId;
import io.paysession.command.rails.PaymentRails;
import io.paysession.command.rails.StubRails;
import io.paysession.command.rails.StubRails.Call;
import io.paysession.command.rails.StubRails.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17, target 5: the rate grows with the users because no thread waits for a rail. One thread (a processor's)
 * hands over 200 confirmed payments whose rail takes its time: all 200 authorizations are at the rail together,
 * none answered, and the thread is free; the answers, when they come, are each recorded once, and nothing is left
 * in flight.
 */
class RailCallsHoldNoThreadTest {

    private static final int PAYMENTS = 200;
    private static final Money AMOUNT = Money.of(10_000, "rub");
    private static final CardMethod CARD = new CardMethod("card_" + "5".repeat(32), "visa", "424242", "4242");
    private static final RailOrder ORDER = new RailOrder(CARD, AMOUNT, CaptureMode.AUTO, null);

    private final StubRails rail = new StubRails();
    private final RecordingCommands commands = new RecordingCommands();
    private final RailCalls calls = commands.railCalls(Duration.ofSeconds(30));
    private final EventDelivery events = new EventDelivery("shop", new PaymentProcess(new PaymentRails(List.of(rail)),
            commands.sender(), calls, new MoneyMovingCalls(new InMemoryRailCallJournal(), calls)));

    @AfterEach
    void stop() {
        commands.close();
    }

    @Test
    void twoHundredAuthorizationsWaitAtTheRailTogetherWhileTheHandlingThreadIsFree() {
        List<CompletableFuture<AuthorizationOutcome>> answers = new ArrayList<>();
        List<CompletableFuture<?>> handled = new ArrayList<>();
        int threadsBefore = Thread.activeCount();
        for (int i = 0; i < PAYMENTS; i++) {
            CompletableFuture<AuthorizationOutcome> answer = new CompletableFuture<>();
            answers.add(answer);
            rail.next(Call.AUTHORIZE, new Reply.Later<>(answer));
        }

        IntStream.range(0, PAYMENTS).forEach(i -> handled.add(events.start(confirmed(i))));

        assertThat(rail.received()).as("every authorization is at the rail").hasSize(PAYMENTS);
        assertThat(answers).as("and none answered yet").noneMatch(CompletableFuture::isDone);
        assertThat(handled).noneMatch(CompletableFuture::isDone);
        assertThat(commands.inFlight().inFlight()).hasSize(PAYMENTS);
        assertThat(Thread.activeCount() - threadsBefore).as("no thread per call waiting").isLessThan(PAYMENTS / 4);

        answers.forEach(answer -> answer.complete(StubRails.approved()));
        handled.forEach(EventDelivery::join);

        assertThat(commands.sent()).hasSize(PAYMENTS).allSatisfy(command ->
                assertThat(command).isInstanceOfSatisfying(RecordPaymentAuthorizationCommand.class, recorded ->
                        assertThat(recorded.outcome()).isEqualTo(StubRails.approved())));
        assertThat(commands.sent()).extracting(command -> ((RecordPaymentAuthorizationCommand) command).paymentId())
                .doesNotHaveDuplicates();
        assertThat(commands.inFlight().inFlight()).as("every answer recorded, nothing in flight").isEmpty();
    }

    private static PaymentConfirmedEvent confirmed(int i) {
        return new PaymentConfirmedEvent(SessionId.of("ps_" + (1000 + i)), PaymentId.of("pm_" + (1000 + i)), ORDER,
                Instant.parse("2026-11-25T10:00:00Z"));
    }
}
