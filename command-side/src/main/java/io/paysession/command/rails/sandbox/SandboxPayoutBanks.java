package io.paysession.command.rails.sandbox;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.TransactionInfo;
import io.paysession.command.rails.PayoutOperation;
import io.paysession.command.rails.PayoutRail;
import io.paysession.command.rails.PrecheckResult;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.RevealedCard;
import org.springframework.stereotype.Component;

import java.security.SecureRandom;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The simulated payout banks. Card payouts follow the test-card table (decisions.md section 4: declines
 * fail, the time-out card is unknown until asked again); {@code GB33BUKB20201555555555} has no account;
 * instant payouts and verifications look the phone up in {@link SandboxFpsDirectory}. Idempotent by payout
 * id: every answer is bound in {@link SandboxLedger}, so a second send or a query gets the first answer. The
 * time-out card's payout is made, but the answer to its first send is lost (unknown).
 */
@Component
@ConditionalOnSandboxRails
public class SandboxPayoutBanks implements PayoutRail {

    static final String MISSING_ACCOUNT = "GB33BUKB20201555555555";

    private final CardVault vault;
    private final SandboxFpsDirectory directory;
    private final SandboxScheduler scheduler;
    private final SandboxLedger ledger;
    private final SecureRandom random = new SecureRandom();

    public SandboxPayoutBanks(CardVault vault, SandboxFpsDirectory directory, SandboxScheduler scheduler,
                              SandboxLedger ledger) {
        this.vault = vault;
        this.directory = directory;
        this.scheduler = scheduler;
        this.ledger = ledger;
    }

    @Override
    public CompletionStage<PrecheckResult> precheck(PayoutOperation operation) {
        return scheduler.later(() -> {
            if (operation.payout().method() instanceof PayoutMethod.Card card
                    && vault.describe(card.vaultToken()).isEmpty()) {
                return new PrecheckResult.Refused(ErrorDetails.of(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST,
                        "The card is not known to the payout bank"));
            }
            return new PrecheckResult.Passed();
        });
    }

    @Override
    public CompletionStage<AuthorizationOutcome> send(PayoutOperation operation) {
        return scheduler.later(() -> {
            Optional<RevealedCard> card = revealCard(operation);
            SandboxLedger.Binding<AuthorizationOutcome> bound = bind(operation, card);
            if (bound.fresh() && card.isPresent() && SandboxTestCards.timesOut(card.get().number())) {
                return new AuthorizationOutcome.Unknown(ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT,
                        "The payout bank did not answer in time"));
            }
            return bound.answer();
        });
    }

    /** The answer bound to the payout; a payout the bank has no record of is made now (see the card acquirer). */
    @Override
    public CompletionStage<AuthorizationOutcome> queryOutcome(PayoutOperation operation) {
        return scheduler.later(() -> bind(operation, revealCard(operation)).answer());
    }

    private SandboxLedger.Binding<AuthorizationOutcome> bind(PayoutOperation operation, Optional<RevealedCard> card) {
        String payout = operation.payoutId().value();
        return ledger.bind(SandboxLedger.Kind.PAYOUT, payout, payout, operation.payout().amount(),
                AuthorizationOutcome.class, () -> decide(operation, card));
    }

    private Optional<RevealedCard> revealCard(PayoutOperation operation) {
        return operation.payout().method() instanceof PayoutMethod.Card card
                ? vault.reveal(card.vaultToken()) : Optional.empty();
    }

    private AuthorizationOutcome decide(PayoutOperation operation, Optional<RevealedCard> revealed) {
        PayoutMethod method = operation.payout().method();
        if (method instanceof PayoutMethod.Card) {
            if (revealed.isEmpty()) {
                return new AuthorizationOutcome.Declined(ErrorDetails.of(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST,
                        "The card is not known to the payout bank"));
            }
            return SandboxTestCards.declineFor(revealed.get().number())
                    .<AuthorizationOutcome>map(code -> new AuthorizationOutcome.Declined(
                            ErrorDetails.of(code, "The issuer bank refused the payout")))
                    .orElseGet(() -> new AuthorizationOutcome.Approved(TransactionInfo.card(digits(12), null)));
        }
        if (method instanceof PayoutMethod.Iban iban) {
            if (MISSING_ACCOUNT.equals(iban.iban())) {
                return notFound("The recipient's bank has no such account");
            }
            return new AuthorizationOutcome.Approved(new TransactionInfo(null, null, null));
        }
        if (method instanceof PayoutMethod.FasterPayment fps) {
            if (!directory.isRegistered(fps.phone(), fps.bankId())) {
                return notFound("The phone is not registered at this bank in the instant-payment system");
            }
            return new AuthorizationOutcome.Approved(new TransactionInfo(null, null, "A" + digits(31)));
        }
        PayoutMethod.FasterPaymentVerification verification = (PayoutMethod.FasterPaymentVerification) method;
        return directory.isRegistered(verification.phone(), verification.bankId())
                ? new AuthorizationOutcome.Approved(new TransactionInfo(null, null, null))
                : notFound("The recipient is not registered at this bank in the instant-payment system");
    }

    private static AuthorizationOutcome notFound(String description) {
        return new AuthorizationOutcome.Declined(ErrorDetails.of(ErrorCode.ACCOUNT_NOT_FOUND, description));
    }

    private String digits(int count) {
        StringBuilder digits = new StringBuilder(count);
        for (int i = 0; i < count; i++) {
            digits.append(random.nextInt(10));
        }
        return digits.toString();
    }
}
