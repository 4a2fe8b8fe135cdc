package io.paysession.command.process;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.eventstore.axon.TrackingTokenPositions;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.MarkPayoutReadyToConfirmCommand;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutFailedEvent;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.PayoutOutcomeQueryRequestedEvent;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.RecordPayoutOutcomeCommand;
import io.paysession.api.session.RefusePayoutCommand;
import io.paysession.api.session.SessionId;
import io.paysession.command.rails.PayoutOperation;
import io.paysession.command.rails.StubRails;
import io.paysession.command.rails.StubRails.Call;
import io.paysession.command.rails.StubRails.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PayoutProcess} on its own, with a {@link StubRails} as the payout bank, Axon's recording command bus in
 * place of the Session and the rail-call journal in memory: no Spring, no database. A payout is pre-checked, sent
 * once per payout id when confirmed, and an outcome that is not known is queried, never sent again.
 */
class PayoutProcessTest {

    private static final SessionId SESSION = SessionId.of("ps_21");
    private static final PayoutId PAYOUT = PayoutId.of("po_22");
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final PayoutData TO_AN_ACCOUNT = payout(new PayoutMethod.Iban("global", "DE89370400440532013000",
            "salary"), Money.of(50_000, "eur"));

    private final StubRails bank = new StubRails();
    private final RecordingCommands commands = new RecordingCommands();
    private final RailCalls calls = commands.railCalls(Duration.ofMillis(100));
    private final InMemoryWalletHolds wallet = new InMemoryWalletHolds();
    private final PayoutProcess process = new PayoutProcess(bank, calls,
            new MoneyMovingCalls(new InMemoryRailCallJournal(), calls), wallet, commands.sender(),
            new TrackingTokenPositions());
    private final EventDelivery events = new EventDelivery("shop", process);

    @AfterEach
    void stop() {
        commands.close();
    }

    private static PayoutData payout(PayoutMethod method, Money amount) {
        ObjectNode recipient = JsonNodeFactory.instance.objectNode();
        recipient.putObject("recipient").put("first_name", "Anna").put("last_name", "Smirnova");
        return new PayoutData(method, amount, null, recipient, null);
    }

    private static PayoutConfirmedEvent confirmed() {
        return new PayoutConfirmedEvent(SESSION, PAYOUT, TO_AN_ACCOUNT, NOW);
    }

    @Test
    void aPayoutFromTheBalanceIsHeldAndPreCheckedWhenTheBalanceCoversIt() {
        wallet.settle("shop", Money.of(50_000, "eur"));

        events.handle(new PayoutStartedEvent(SESSION, PAYOUT, TO_AN_ACCOUNT, NOW, true));

        assertThat(bank.received()).extracting(StubRails.Received::call).containsExactly(StubRails.Call.PAYOUT_PRECHECK);
        assertThat(wallet.holds()).containsOnlyKeys(PAYOUT);
        ErrorDetails declined = ErrorDetails.of(ErrorCode.ACCOUNT_NOT_FOUND, "no such account");
        events.handle(new PayoutFailedEvent(SESSION, PAYOUT, declined, declined, NOW));
        assertThat(wallet.holds()).as("a failed payout gives its hold back").isEmpty();
    }

    @Test
    void aPayoutFromTheBalanceLargerThanWhatIsLeftIsRefusedAndNeverReachesTheBank() {
        wallet.settle("shop", Money.of(80_000, "eur"));
        PayoutId first = PayoutId.of("po_1");
        events.handle(new PayoutStartedEvent(SESSION, first, TO_AN_ACCOUNT, NOW, true));
        int asked = bank.received().size();

        events.handle(new PayoutStartedEvent(SESSION, PAYOUT, TO_AN_ACCOUNT, NOW, true));

        assertThat(bank.received()).as("30 000 left: the second 50 000 is not asked of the bank").hasSize(asked);
        assertThat(commands.sent()).last().isInstanceOfSatisfying(RefusePayoutCommand.class, refused -> {
            assertThat(refused.payoutId()).isEqualTo(PAYOUT);
            assertThat(refused.reason().code()).isEqualTo(ErrorCode.INSUFFICIENT_WALLET_BALANCE);
        });
        assertThat(wallet.holds()).containsOnlyKeys(first);
    }

    @Test
    void aPayoutTheProviderFundsIsNotHeld() {
        events.handle(new PayoutStartedEvent(SESSION, PAYOUT, TO_AN_ACCOUNT, NOW));

        assertThat(bank.received()).hasSize(1);
        assertThat(wallet.holds()).isEmpty();
    }

    @Test
    void aStartedPayoutIsPreCheckedByTheBankAndThenWaitsForTheConfirmation() {
        events.handle(new PayoutStartedEvent(SESSION, PAYOUT, TO_AN_ACCOUNT, NOW));

        assertThat(bank.received()).singleElement().satisfies(call -> {
            assertThat(call.call()).isEqualTo(Call.PAYOUT_PRECHECK);
            assertThat(call.operation()).isEqualTo(new PayoutOperation(SESSION, PAYOUT, TO_AN_ACCOUNT));
        });
        assertThat(commands.sent()).containsExactly(new MarkPayoutReadyToConfirmCommand(SESSION, PAYOUT));
    }

    @Test
    void aPayoutTheBankRefusesAtItsPreCheckIsRefusedWithTheBanksReason() {
        bank.answerNext(Call.PAYOUT_PRECHECK, StubRails.refused(ErrorCode.ACCOUNT_NOT_FOUND));

        events.handle(new PayoutStartedEvent(SESSION, PAYOUT, TO_AN_ACCOUNT, NOW));

        assertThat(commands.sent()).containsExactly(new RefusePayoutCommand(SESSION, PAYOUT,
                ErrorDetails.of(ErrorCode.ACCOUNT_NOT_FOUND, "refused by the stub rail")));
    }

    @Test
    void aPreCheckWithoutAnAnswerGivesItsEventBackToBeHandledAgain() {
        bank.next(Call.PAYOUT_PRECHECK, Reply.silence());
        PayoutStartedEvent started = new PayoutStartedEvent(SESSION, PAYOUT, TO_AN_ACCOUNT, NOW);

        events.handle(started);
        assertThat(commands.sent()).isEmpty();
        assertThat(commands.inFlight().givenBack()).containsOnlyKeys(events.idOf(started));

        events.handle(started);
        assertThat(commands.sent()).containsExactly(new MarkPayoutReadyToConfirmCommand(SESSION, PAYOUT));
    }

    @Test
    void aRecipientVerificationIsNotPreCheckedItIsConfirmedWithItsStart() {
        events.handle(new PayoutStartedEvent(SESSION, PAYOUT,
                payout(new PayoutMethod.FasterPaymentVerification("79261234567", "100000000069"), null), NOW));

        assertThat(bank.received()).isEmpty();
        assertThat(commands.sent()).isEmpty();
    }

    @Test
    void aConfirmedPayoutIsSentOnceAndThePaymentIsRecorded() {
        events.handle(confirmed());

        assertThat(bank.callsFor(PAYOUT.value())).containsExactly(Call.PAYOUT_SEND);
        assertThat(bank.received()).singleElement().satisfies(call ->
                assertThat(call.amount()).isEqualTo(Money.of(50_000, "eur")));
        assertThat(commands.sent()).containsExactly(
                new RecordPayoutOutcomeCommand(SESSION, PAYOUT, StubRails.approved()));
    }

    @Test
    void aPayoutTheBankDeclinesIsRecordedWithTheBanksReason() {
        bank.answerNext(Call.PAYOUT_SEND, StubRails.declined(ErrorCode.ACCOUNT_NOT_FOUND));

        events.handle(confirmed());

        assertThat(commands.sent()).containsExactly(new RecordPayoutOutcomeCommand(SESSION, PAYOUT,
                StubRails.declined(ErrorCode.ACCOUNT_NOT_FOUND)));
    }

    @Test
    void aPayoutWithoutAnAnswerInTimeIsUnknownAndItsDeadlineQueriesTheBankWithoutSendingAgain() {
        bank.next(Call.PAYOUT_SEND, Reply.silence());
        events.handle(confirmed());

        events.handle(new PayoutOutcomeQueryRequestedEvent(SESSION, PAYOUT, TO_AN_ACCOUNT, 1, NOW));

        assertThat(bank.callsFor(PAYOUT.value())).containsExactly(Call.PAYOUT_SEND, Call.QUERY_PAYOUT);
        assertThat(commands.sent().get(0)).isInstanceOfSatisfying(RecordPayoutOutcomeCommand.class, command ->
                assertThat(command.outcome()).isInstanceOfSatisfying(AuthorizationOutcome.Unknown.class, unknown ->
                        assertThat(unknown.reason().code()).isEqualTo(ErrorCode.PROVIDER_TIMEOUT)));
        assertThat(commands.sent().get(1)).isEqualTo(
                new RecordPayoutOutcomeCommand(SESSION, PAYOUT, StubRails.approved()));
    }

    @Test
    void theSameConfirmationHandledAgainAfterItsAnswerWasRecordedAsksTheQueryAndNeverPaysTwice() {
        commands.refuseNext(RecordPayoutOutcomeCommand.class, PaymentsException.wrongState("the payout has ended"));
        events.handle(confirmed());

        events.handle(confirmed());

        assertThat(bank.callsFor(PAYOUT.value())).containsExactly(Call.PAYOUT_SEND, Call.QUERY_PAYOUT);
        assertThat(commands.sent()).hasSize(2)
                .containsOnly(new RecordPayoutOutcomeCommand(SESSION, PAYOUT, StubRails.approved()));
    }

    @Test
    void aBankThatThrowsAtTheSendLeavesThePayoutUnknownNotAFailedEvent() {
        bank.next(Call.PAYOUT_SEND, Reply.throwing());

        events.handle(confirmed());

        assertThat(commands.sent()).singleElement().isInstanceOfSatisfying(RecordPayoutOutcomeCommand.class, command ->
                assertThat(command.outcome()).isInstanceOf(AuthorizationOutcome.Unknown.class));
        assertThat(bank.count(Call.PAYOUT_SEND, PAYOUT.value())).isEqualTo(1);
    }
}
