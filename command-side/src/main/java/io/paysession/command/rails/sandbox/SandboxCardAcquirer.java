package io.paysession.command.rails.sandbox;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.TransactionInfo;
import io.paysession.command.rails.CaptureOutcome;
import io.paysession.command.rails.PaymentRail;
import io.paysession.command.rails.PrecheckResult;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.RefundOutcome;
import io.paysession.command.session.SessionClocks;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.RevealedCard;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.YearMonth;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A simulated card acquirer. It reads the card from the vault as a real adapter would and decides by the
 * test-card table: approvals (held when the partner captures later) carry a 12-digit RRN and a
 * 6-character authorization code; the 3-D Secure card needs the payer on the hosted challenge page; the
 * time-out card is processed, but the answer to its first call is lost (unknown) until the acquirer is
 * asked again. Like a real acquirer it is idempotent by operation id: every answer is bound in
 * {@link SandboxLedger}, so a second call or a query gets the first answer and nothing is charged twice.
 * A card payment whose security code is no longer in the vault when it is authorized is declined, as an
 * issuer declines one sent without it.
 */
@Component
@ConditionalOnSandboxRails
public class SandboxCardAcquirer implements PaymentRail, PayerDecisions {

    private static final String AUTH_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";

    private final CardVault vault;
    private final SandboxInteractions interactions;
    private final SandboxScheduler scheduler;
    private final SandboxLedger ledger;
    private final Clock clock;
    private final SandboxChargebacks chargebacks;
    private final SessionClocks sessionClocks;
    private final SecureRandom random = new SecureRandom();

    @Autowired
    public SandboxCardAcquirer(CardVault vault, SandboxInteractions interactions, SandboxScheduler scheduler,
                               SandboxLedger ledger, Clock clock, SandboxChargebacks chargebacks,
                               SessionClocks sessionClocks) {
        this.vault = vault;
        this.interactions = interactions;
        this.scheduler = scheduler;
        this.ledger = ledger;
        this.clock = clock;
        this.chargebacks = chargebacks;
        this.sessionClocks = sessionClocks;
    }

    /** Without chargebacks: the chargeback test card is paid like any other (the rail contract's tests). */
    public SandboxCardAcquirer(CardVault vault, SandboxInteractions interactions, SandboxScheduler scheduler,
                               SandboxLedger ledger, Clock clock) {
        this(vault, interactions, scheduler, ledger, clock, null, SessionClocks.real(clock));
    }

    @Override
    public boolean handles(PaymentMethod method) {
        return cardOf(method) != null;
    }

    /** The card of a payment: its own, or the one its recurrent token stands for. */
    private static CardMethod cardOf(PaymentMethod method) {
        if (method instanceof CardMethod card) {
            return card;
        }
        return method instanceof RecurrentMethod recurrent && recurrent.source() instanceof CardMethod card ? card : null;
    }

    /** A merchant-initiated charge with a token has no customer present: no 3-D Secure challenge. */
    private static boolean customerPresent(RailOperation operation) {
        return !(operation.order().method() instanceof RecurrentMethod recurrent && recurrent.merchantInitiated());
    }

    @Override
    public CompletionStage<PrecheckResult> precheck(RailOperation operation) {
        return scheduler.later(() -> {
            Optional<RevealedCard> card = reveal(operation);
            if (card.isEmpty()) {
                return new PrecheckResult.Refused(unknownCard());
            }
            YearMonth expiry = card.get().expiry();
            if (expiry != null && expiry.isBefore(YearMonth.now(clock))) {
                return new PrecheckResult.Refused(ErrorDetails.of(ErrorCode.BANK_CARD_EXPIRED,
                        "The card expired at the end of " + expiry));
            }
            return new PrecheckResult.Passed();
        });
    }

    @Override
    public CompletionStage<AuthorizationOutcome> authorize(RailOperation operation) {
        return scheduler.later(() -> {
            Optional<RevealedCard> card = reveal(operation);
            SandboxLedger.Binding<AuthorizationOutcome> bound = bindAuthorization(operation, card, true);
            if (bound.fresh() && chargebacks != null && card.isPresent()
                    && SandboxTestCards.chargedBack(card.get().number())
                    && bound.answer() instanceof AuthorizationOutcome.Approved) {
                chargebacks.raiseLater(operation.sessionId());
            }
            if (bound.fresh() && card.isPresent() && (SandboxTestCards.timesOut(card.get().number())
                    || SandboxTestCards.staysUnknown(card.get().number()))) {
                return new AuthorizationOutcome.Unknown(ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT,
                        "The acquirer did not answer in time"));
            }
            return bound.answer();
        });
    }

    /**
     * The answer bound to the payment. For a payment the acquirer has no record of (the engine journaled the
     * call and crashed before making it) the sandbox processes it now: the answer binds the id all the same.
     */
    @Override
    public CompletionStage<AuthorizationOutcome> queryOutcome(RailOperation operation) {
        // a query carries no security code: an authorization it processes late is the one sent with the code
        return scheduler.later(() -> {
            Optional<RevealedCard> card = reveal(operation);
            if (card.isPresent() && SandboxTestCards.staysUnknown(card.get().number())
                    && stillUnknown(operation)) {
                return new AuthorizationOutcome.Unknown(ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT,
                        "The acquirer does not know the outcome yet"));
            }
            return bindAuthorization(operation, card, false).answer();
        });
    }

    /**
     * The card that stays unknown: for {@code long-unknown} after its authorization was bound, in the session's time
     * (a partner who moved the session's time forward past it finds the outcome known; an advance made before it
     * was bound does not count).
     */
    private boolean stillUnknown(RailOperation operation) {
        return ledger.boundAt(SandboxLedger.Kind.AUTHORIZE, operation.paymentId().value())
                .map(bound -> sessionClocks.elapsedSince(operation.sessionId(), bound)
                        .compareTo(scheduler.properties().longUnknown()) < 0)
                .orElse(false);
    }

    private SandboxLedger.Binding<AuthorizationOutcome> bindAuthorization(RailOperation operation,
                                                                         Optional<RevealedCard> card,
                                                                         boolean withSecurityCode) {
        String payment = operation.paymentId().value();
        return ledger.bind(SandboxLedger.Kind.AUTHORIZE, payment, payment, operation.order().amount(),
                AuthorizationOutcome.class, () -> {
                    if (card.isEmpty()) {
                        return new AuthorizationOutcome.Declined(unknownCard());
                    }
                    if (withSecurityCode && operation.order().method() instanceof CardMethod
                            && card.get().securityCode() == null) {
                        // a card payment with the customer present is authorized with its security code; the
                        // vault keeps it until then (a charge with a recurrent token has none and needs none)
                        return new AuthorizationOutcome.Declined(ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK,
                                "The issuer bank declined the payment: no security code was given"));
                    }
                    if (SandboxTestCards.needsThreeDSecure(card.get().number()) && customerPresent(operation)) {
                        return new AuthorizationOutcome.PayerActionRequired(
                                interactions.open(operation, InteractionKind.THREE_D_SECURE));
                    }
                    return decide(operation, card.get());
                });
    }

    @Override
    public boolean decides(InteractionKind kind) {
        return kind == InteractionKind.THREE_D_SECURE;
    }

    @Override
    public AuthorizationOutcome afterPayer(SandboxInteractions.Interaction interaction, boolean approved) {
        if (!approved) {
            return new AuthorizationOutcome.Declined(ErrorDetails.of(ErrorCode.THREE_DS_ERROR,
                    "The payer did not pass 3-D Secure authentication"));
        }
        return reveal(interaction.operation())
                .map(card -> decide(interaction.operation(), card))
                .orElseGet(() -> new AuthorizationOutcome.Declined(unknownCard()));
    }

    @Override
    public CompletionStage<CaptureOutcome> capture(RailOperation operation, Money amount) {
        return scheduler.later(() -> ledger.capture(operation, amount));
    }

    @Override
    public CompletionStage<CaptureOutcome> queryCapture(RailOperation operation, Money amount) {
        return scheduler.later(() -> ledger.capture(operation, amount));
    }

    @Override
    public CompletionStage<Void> release(RailOperation operation) {
        return scheduler.later(() -> null);
    }

    @Override
    public CompletionStage<RefundOutcome> refund(RailOperation operation, RefundId refundId, Money amount) {
        return scheduler.later(() -> refundAnswer(operation, refundId, amount));
    }

    @Override
    public CompletionStage<RefundOutcome> queryRefund(RailOperation operation, RefundId refundId, Money amount) {
        return scheduler.later(() -> refundAnswer(operation, refundId, amount));
    }

    /** The refund's bound answer; for the card that stays unknown, unknown for {@code long-unknown} after it. */
    private RefundOutcome refundAnswer(RailOperation operation, RefundId refundId, Money amount) {
        RefundOutcome bound = ledger.refund(operation, refundId, amount, () -> issuerRefusal(operation));
        boolean staysUnknown = reveal(operation).filter(card -> SandboxTestCards.staysUnknown(card.number()))
                .isPresent();
        if (staysUnknown && ledger.boundAt(SandboxLedger.Kind.REFUND, refundId.value())
                .map(at -> sessionClocks.elapsedSince(operation.sessionId(), at)
                        .compareTo(scheduler.properties().longUnknown()) < 0)
                .orElse(false)) {
            return new RefundOutcome.Unknown(ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT,
                    "The acquirer does not know the refund's outcome yet"));
        }
        return bound;
    }

    private Optional<ErrorDetails> issuerRefusal(RailOperation operation) {
        return reveal(operation).filter(card -> !SandboxTestCards.refusesRefunds(card.number())).isPresent()
                ? Optional.empty()
                : Optional.of(ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "The issuer bank refused the refund"));
    }

    private AuthorizationOutcome decide(RailOperation operation, RevealedCard card) {
        Optional<ErrorCode> decline = SandboxTestCards.declineFor(card.number());
        if (decline.isPresent()) {
            return new AuthorizationOutcome.Declined(ErrorDetails.of(decline.get(), declineDescription(decline.get())));
        }
        TransactionInfo info = TransactionInfo.card(digits(12), authCode());
        return operation.order().holds() ? new AuthorizationOutcome.Held(info) : new AuthorizationOutcome.Approved(info);
    }

    private Optional<RevealedCard> reveal(RailOperation operation) {
        return vault.reveal(cardOf(operation.order().method()).vaultToken());
    }

    private static ErrorDetails unknownCard() {
        return ErrorDetails.of(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST, "The card is not known to the acquirer");
    }

    private static String declineDescription(ErrorCode code) {
        return switch (code) {
            case DECLINED_BY_ISSUER_BANK -> "The issuer bank declined the payment";
            case INSUFFICIENT_FUNDS -> "Insufficient funds on the card";
            case BANK_CARD_EXPIRED -> "The card has expired";
            default -> "The payment was declined";
        };
    }

    private String digits(int count) {
        StringBuilder digits = new StringBuilder(count);
        for (int i = 0; i < count; i++) {
            digits.append(random.nextInt(10));
        }
        return digits.toString();
    }

    private String authCode() {
        StringBuilder code = new StringBuilder(6);
        for (int i = 0; i < 6; i++) {
            code.append(AUTH_CODE_ALPHABET.charAt(random.nextInt(AUTH_CODE_ALPHABET.length())));
        }
        return code.toString();
    }
}
