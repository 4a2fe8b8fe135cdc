package io.paysession.command.rails.sandbox;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.SessionId;
import io.paysession.command.rails.PrecheckResult;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.RefundOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.YearMonth;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sandbox card acquirer gives each test card of decisions.md section 4 its documented outcome. Its latency is
 * configuration ({@code payments.sandbox.card-latency-*}): here none, so the answers come at once on the rail's
 * thread. Its vault, hosted-page records and ledger are command-side's tables ({@link SandboxRailsOnPostgres}).
 * That a number failing the Luhn check is a 400 {@code card_number_does_not_exist} is the gateway's part: such a
 * number never reaches the vault (CardNumberTest).
 */
class SandboxCardAcquirerTest {

    private static final Money AMOUNT = Money.of(10_000, "rub");

    private final SandboxRailsOnPostgres sandbox = SandboxRailsOnPostgres.get();
    private final SandboxScheduler noLatency = new SandboxScheduler(new SandboxProperties(Duration.ZERO, Duration.ZERO, Duration.ofMinutes(20)));
    private final SandboxCardAcquirer acquirer = sandbox.cardAcquirer(noLatency);

    @AfterEach
    void stop() {
        noLatency.destroy();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"4242424242424242", "5555555555554444", "2200000000000004", "4111111111111111"})
    void anApprovedCardPassesItsPreCheckAndIsPaidWithoutTheCustomerWithAnRrnAndAnAuthorizationCode(String number) {
        RailOperation payment = payment(sandbox.card(number), CaptureMode.AUTO);

        assertThat(answer(acquirer.precheck(payment))).isEqualTo(new PrecheckResult.Passed());
        assertThat(answer(acquirer.authorize(payment))).isInstanceOfSatisfying(AuthorizationOutcome.Approved.class,
                approved -> {
                    assertThat(approved.transactionInfo().rrn()).matches("[0-9]{12}");
                    assertThat(approved.transactionInfo().authCode()).matches("[A-Z0-9]{6}");
                });
    }

    @Test
    void anApprovedCardOfAPartnerWhoCapturesLaterIsHeld() {
        RailOperation payment = payment(sandbox.card("4242424242424242"), CaptureMode.DELAYED);

        assertThat(answer(acquirer.authorize(payment))).isInstanceOf(AuthorizationOutcome.Held.class);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "4000000000000002, DECLINED_BY_ISSUER_BANK",
            "4000000000009995, INSUFFICIENT_FUNDS",
            "4000000000000069, BANK_CARD_EXPIRED"})
    void aDecliningTestCardFailsWithItsDocumentedErrorCode(String number, ErrorCode code) {
        RailOperation payment = payment(sandbox.card(number), CaptureMode.AUTO);

        assertThat(answer(acquirer.precheck(payment))).as("declines come at the authorization")
                .isEqualTo(new PrecheckResult.Passed());
        assertThat(answer(acquirer.authorize(payment))).isInstanceOfSatisfying(AuthorizationOutcome.Declined.class,
                declined -> assertThat(declined.reason().code()).isEqualTo(code));
    }

    @Test
    void theThreeDSecureCardSendsThePayerToTheHostedChallengePageAndTheirApprovalPaysIt() {
        RailOperation payment = payment(sandbox.card(SandboxTestCards.THREE_D_SECURE), CaptureMode.AUTO);

        SandboxInteractions.Interaction challenge = challengeOf(answer(acquirer.authorize(payment)));

        assertThat(challenge.kind()).isEqualTo(InteractionKind.THREE_D_SECURE);
        assertThat(challenge.operation()).isEqualTo(payment);
        assertThat(acquirer.afterPayer(challenge, true)).isInstanceOf(AuthorizationOutcome.Approved.class);
    }

    @Test
    void aPayerWhoFailsTheThreeDSecureChallengeGetsA3dsError() {
        RailOperation payment = payment(sandbox.card(SandboxTestCards.THREE_D_SECURE), CaptureMode.AUTO);

        SandboxInteractions.Interaction challenge = challengeOf(answer(acquirer.authorize(payment)));

        assertThat(acquirer.afterPayer(challenge, false)).isInstanceOfSatisfying(AuthorizationOutcome.Declined.class,
                declined -> assertThat(declined.reason().code()).isEqualTo(ErrorCode.THREE_DS_ERROR));
    }

    @Test
    void theThreeDSecureCardChargedByTheMerchantWithItsTokenIsPaidWithoutAChallenge() {
        CardMethod card = sandbox.card(SandboxTestCards.THREE_D_SECURE, YearMonth.now().plusYears(2), null);
        RecurrentMethod token = new RecurrentMethod("rt_" + sandbox.nextId(), RecurrentMethod.Initiator.MERCHANT, card);

        assertThat(answer(acquirer.authorize(payment(token, CaptureMode.AUTO))))
                .isInstanceOf(AuthorizationOutcome.Approved.class);
    }

    @Test
    void theTimeOutCardsFirstAnswerIsUnknownAndTheAcquirersQueryThenSaysItWasPaid() {
        RailOperation payment = payment(sandbox.card(SandboxTestCards.RAIL_TIMEOUT), CaptureMode.AUTO);

        assertThat(answer(acquirer.authorize(payment))).isInstanceOfSatisfying(AuthorizationOutcome.Unknown.class,
                unknown -> assertThat(unknown.reason().code()).isEqualTo(ErrorCode.PROVIDER_TIMEOUT));
        AuthorizationOutcome queried = answer(acquirer.queryOutcome(payment));

        assertThat(queried).isInstanceOf(AuthorizationOutcome.Approved.class);
        assertThat(answer(acquirer.queryOutcome(payment))).as("the answer is bound to the payment").isEqualTo(queried);
    }

    @Test
    void aCardPaymentAuthorizedWithoutItsSecurityCodeIsDeclinedAsTheIssuerWould() {
        RailOperation payment = payment(sandbox.card("4242424242424242", YearMonth.now().plusYears(2), null),
                CaptureMode.AUTO);

        assertThat(answer(acquirer.authorize(payment))).isInstanceOfSatisfying(AuthorizationOutcome.Declined.class,
                declined -> assertThat(declined.reason().code()).isEqualTo(ErrorCode.DECLINED_BY_ISSUER_BANK));
    }

    /** The engine journaled the authorization and lost it; by the time it asks, the security code is erased. */
    @Test
    void aQueryNeedsNoSecurityCodeToSettleAPaymentWhoseAuthorizationWasLost() {
        RailOperation payment = payment(sandbox.card("4242424242424242", YearMonth.now().plusYears(2), null),
                CaptureMode.AUTO);

        assertThat(answer(acquirer.queryOutcome(payment))).isInstanceOf(AuthorizationOutcome.Approved.class);
    }

    @Test
    void anExpiredCardIsRefusedAtItsPreCheck() {
        RailOperation payment = payment(sandbox.card("4242424242424242", YearMonth.now().minusMonths(1), "123"),
                CaptureMode.AUTO);

        assertThat(answer(acquirer.precheck(payment))).isInstanceOfSatisfying(PrecheckResult.Refused.class,
                refused -> assertThat(refused.reason().code()).isEqualTo(ErrorCode.BANK_CARD_EXPIRED));
    }

    @Test
    void aCardTheVaultDoesNotHoldDoesNotExistForTheAcquirer() {
        RailOperation payment = payment(new CardMethod("card_" + "0".repeat(32), "visa", "424242", "4242"),
                CaptureMode.AUTO);

        assertThat(answer(acquirer.precheck(payment))).isInstanceOfSatisfying(PrecheckResult.Refused.class,
                refused -> assertThat(refused.reason().code()).isEqualTo(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST));
        assertThat(answer(acquirer.authorize(payment))).isInstanceOfSatisfying(AuthorizationOutcome.Declined.class,
                declined -> assertThat(declined.reason().code()).isEqualTo(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST));
    }

    @Test
    void theRefundDeclinedCardIsPaidAndItsRefundIsDeclinedByTheIssuer() {
        RailOperation payment = payment(sandbox.card(SandboxTestCards.REFUND_DECLINED), CaptureMode.AUTO);
        assertThat(answer(acquirer.authorize(payment))).isInstanceOf(AuthorizationOutcome.Approved.class);

        RefundOutcome refund = answer(acquirer.refund(payment, RefundId.of(sandbox.nextId()), Money.of(100, "rub")));

        assertThat(refund).isInstanceOfSatisfying(RefundOutcome.Declined.class,
                declined -> assertThat(declined.reason().code()).isEqualTo(ErrorCode.DECLINED_BY_ISSUER_BANK));
    }

    private SandboxInteractions.Interaction challengeOf(AuthorizationOutcome outcome) {
        assertThat(outcome).isInstanceOf(AuthorizationOutcome.PayerActionRequired.class);
        CustomerInteraction interaction = ((AuthorizationOutcome.PayerActionRequired) outcome).interaction();
        assertThat(interaction).isInstanceOf(CustomerInteraction.Redirect.class);
        String url = ((CustomerInteraction.Redirect) interaction).url();
        assertThat(url).as("the hosted challenge page").startsWith("https://sandbox.example/sandbox/interactions/");
        String id = url.substring(url.lastIndexOf('/') + 1);
        return sandbox.interactions().find(id).orElseThrow();
    }

    private RailOperation payment(PaymentMethod method, CaptureMode captureMode) {
        long id = sandbox.nextId();
        return new RailOperation(SessionId.of(id), PaymentId.of(id), new RailOrder(method, AMOUNT, captureMode, null));
    }

    private static <T> T answer(CompletionStage<T> answer) {
        try {
            return answer.toCompletableFuture().get(30, TimeUnit.SECONDS); // a guard against a hang, not a measure
        } catch (Exception e) {
            throw new AssertionError("the acquirer gave no answer", e);
        }
    }
}
