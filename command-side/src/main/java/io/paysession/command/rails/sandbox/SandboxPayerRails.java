package io.paysession.command.rails.sandbox;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.BankAppMethod;
import io.paysession.api.session.FasterPaymentBindingMethod;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.TransactionInfo;
import io.paysession.api.session.WalletMethod;
import io.paysession.command.rails.CaptureOutcome;
import io.paysession.command.rails.PaymentRail;
import io.paysession.command.rails.PrecheckResult;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.RefundOutcome;
import org.springframework.stereotype.Component;

import java.security.SecureRandom;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The simulated rails where the payer approves in an application: the e-wallet, the bank application,
 * the QR-code application and the instant-payment system. Each payment waits on its hosted page; the
 * payer's approval pays it (or holds it, for bank applications of partners who capture later), a
 * decline fails it. Instant payments carry an {@code fp_message_id}. Idempotent by operation id: every
 * answer is bound in {@link SandboxLedger} (a second call gets the same hosted page, not a new one).
 */
@Component
@ConditionalOnSandboxRails
public class SandboxPayerRails implements PaymentRail, PayerDecisions {

    private static final Set<InteractionKind> KINDS = Set.of(InteractionKind.WALLET, InteractionKind.BANK_APP,
            InteractionKind.QR_APP, InteractionKind.FASTER_PAYMENT);

    private final SandboxInteractions interactions;
    private final SandboxScheduler scheduler;
    private final SandboxLedger ledger;
    private final SecureRandom random = new SecureRandom();

    public SandboxPayerRails(SandboxInteractions interactions, SandboxScheduler scheduler, SandboxLedger ledger) {
        this.interactions = interactions;
        this.scheduler = scheduler;
        this.ledger = ledger;
    }

    @Override
    public boolean handles(PaymentMethod method) {
        PaymentMethod own = ownMethod(method);
        return own instanceof WalletMethod || own instanceof BankAppMethod || own instanceof QrAppMethod
                || own instanceof FasterPaymentMethod || own instanceof FasterPaymentBindingMethod;
    }

    /** The method a payment is really made with: its own, or the one its recurrent token stands for. */
    private static PaymentMethod ownMethod(PaymentMethod method) {
        return method instanceof RecurrentMethod recurrent ? recurrent.source() : method;
    }

    @Override
    public CompletionStage<PrecheckResult> precheck(RailOperation operation) {
        return scheduler.later(PrecheckResult.Passed::new);
    }

    /**
     * The payer approves in the application, but not for a merchant-initiated charge with a token: the payer
     * agreed to those when the token was made, and is not there.
     */
    @Override
    public CompletionStage<AuthorizationOutcome> authorize(RailOperation operation) {
        return scheduler.later(() -> bindAuthorization(operation));
    }

    /**
     * The answer bound to the payment (pending while the payer has not acted). A payment these rails have no
     * record of is processed now, as for the card acquirer.
     */
    @Override
    public CompletionStage<AuthorizationOutcome> queryOutcome(RailOperation operation) {
        return scheduler.later(() -> bindAuthorization(operation));
    }

    private AuthorizationOutcome bindAuthorization(RailOperation operation) {
        String payment = operation.paymentId().value();
        PaymentMethod method = operation.order().method();
        return ledger.bind(SandboxLedger.Kind.AUTHORIZE, payment, payment, operation.order().amount(),
                AuthorizationOutcome.class, () -> method instanceof RecurrentMethod recurrent
                        && recurrent.merchantInitiated()
                        ? paid(operation, ownMethod(method))
                        : new AuthorizationOutcome.PayerActionRequired(
                        interactions.open(operation, kindOf(ownMethod(method))))).answer();
    }

    @Override
    public boolean decides(InteractionKind kind) {
        return KINDS.contains(kind);
    }

    @Override
    public AuthorizationOutcome afterPayer(SandboxInteractions.Interaction interaction, boolean approved) {
        if (!approved) {
            return new AuthorizationOutcome.Declined(ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK,
                    "The payer declined the payment in the application"));
        }
        return paid(interaction.operation(), ownMethod(interaction.operation().order().method()));
    }

    /**
     * Instant payments carry their message id and the payer's account token (shown only to partners for
     * whom the operator enabled it); a binding charges nothing, so it has no message id.
     */
    private AuthorizationOutcome paid(RailOperation operation, PaymentMethod method) {
        TransactionInfo info;
        if (method instanceof FasterPaymentMethod) {
            info = new TransactionInfo(null, null, fpMessageId(), accountToken());
        } else if (method instanceof FasterPaymentBindingMethod) {
            info = new TransactionInfo(null, null, null, accountToken());
        } else {
            info = new TransactionInfo(null, null, null);
        }
        return operation.order().holds() ? new AuthorizationOutcome.Held(info) : new AuthorizationOutcome.Approved(info);
    }

    private String accountToken() {
        StringBuilder token = new StringBuilder("bat_");
        for (int i = 0; i < 32; i++) {
            token.append(Character.forDigit(random.nextInt(16), 16));
        }
        return token.toString();
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
        return scheduler.later(() -> ledger.refund(operation, refundId, amount, Optional::empty));
    }

    @Override
    public CompletionStage<RefundOutcome> queryRefund(RailOperation operation, RefundId refundId, Money amount) {
        return scheduler.later(() -> ledger.refund(operation, refundId, amount, Optional::empty));
    }

    private static InteractionKind kindOf(PaymentMethod method) {
        if (method instanceof WalletMethod) {
            return InteractionKind.WALLET;
        }
        if (method instanceof BankAppMethod) {
            return InteractionKind.BANK_APP;
        }
        if (method instanceof QrAppMethod) {
            return InteractionKind.QR_APP;
        }
        return InteractionKind.FASTER_PAYMENT; // instant payments and bindings of an instant-payment account
    }

    /** An instant-payment message id: a letter and 31 digits. */
    private String fpMessageId() {
        StringBuilder id = new StringBuilder("A");
        for (int i = 0; i < 31; i++) {
            id.append(random.nextInt(10));
        }
        return id.toString();
    }
}
