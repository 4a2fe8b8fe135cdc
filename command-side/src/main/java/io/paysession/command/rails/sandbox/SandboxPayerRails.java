package io.paysession.command.rails.sandbox;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.BankAppMethod;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.TransactionInfo;
import io.paysession.api.session.WalletMethod;
import io.paysession.command.rails.PaymentRail;
import io.paysession.command.rails.PrecheckResult;
import io.paysession.command.rails.RailOperation;
import io.paysession.command.rails.RefundOutcome;
import org.springframework.stereotype.Component;

import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The simulated rails where the payer approves in an application: the e-wallet, the bank application,
 * the QR-code application and the instant-payment system. Each payment waits on its hosted page; the
 * payer's approval pays it (or holds it, for bank applications of partners who capture later), a
 * decline fails it. Instant payments carry an {@code fp_message_id}.
 */
@Component
public class SandboxPayerRails implements PaymentRail, PayerDecisions {

    private static final Set<InteractionKind> KINDS = Set.of(InteractionKind.WALLET, InteractionKind.BANK_APP,
            InteractionKind.QR_APP, InteractionKind.FASTER_PAYMENT);

    private final SandboxInteractions interactions;
    private final SandboxScheduler scheduler;
    private final SecureRandom random = new SecureRandom();

    public SandboxPayerRails(SandboxInteractions interactions, SandboxScheduler scheduler) {
        this.interactions = interactions;
        this.scheduler = scheduler;
    }

    @Override
    public boolean handles(PaymentMethod method) {
        return method instanceof WalletMethod || method instanceof BankAppMethod || method instanceof QrAppMethod
                || method instanceof FasterPaymentMethod;
    }

    @Override
    public CompletionStage<PrecheckResult> precheck(RailOperation operation) {
        return scheduler.later(PrecheckResult.Passed::new);
    }

    @Override
    public CompletionStage<AuthorizationOutcome> authorize(RailOperation operation) {
        return scheduler.later(() -> new AuthorizationOutcome.PayerActionRequired(
                interactions.open(operation, kindOf(operation.order().method()))));
    }

    /** These rails always answer; a query only happens after an unknown outcome, which they never give. */
    @Override
    public CompletionStage<AuthorizationOutcome> queryOutcome(RailOperation operation) {
        return authorize(operation);
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
        TransactionInfo info = interaction.kind() == InteractionKind.FASTER_PAYMENT
                ? new TransactionInfo(null, null, fpMessageId())
                : new TransactionInfo(null, null, null);
        return interaction.operation().order().holds()
                ? new AuthorizationOutcome.Held(info)
                : new AuthorizationOutcome.Approved(info);
    }

    @Override
    public CompletionStage<TransactionInfo> capture(RailOperation operation, Money amount) {
        return scheduler.later(() -> new TransactionInfo(null, null, null));
    }

    @Override
    public CompletionStage<Void> release(RailOperation operation) {
        return scheduler.later(() -> null);
    }

    @Override
    public CompletionStage<RefundOutcome> refund(RailOperation operation, RefundId refundId, Money amount) {
        return scheduler.later(RefundOutcome.Accepted::new);
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
        return InteractionKind.FASTER_PAYMENT;
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
