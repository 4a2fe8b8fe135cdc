package io.paysession.command.session;

import io.paysession.api.session.BankAppMethod;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.WalletMethod;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The time limits of decisions.md section 6, as configuration ({@code payments.limits.*}); tests use seconds.
 * They become persistent deadlines of the Session aggregate.
 */
@ConfigurationProperties("payments.limits")
public record SessionTimeLimits(@DefaultValue("240m") Duration confirm,
                               @DefaultValue("20m") Duration qrAppConfirm,
                               @DefaultValue("60m") Duration payerAction,
                               @DefaultValue("20m") Duration walletAndBankAppPayerAction,
                               @DefaultValue("5d") Duration capture,
                               @DefaultValue("30s") Duration firstOutcomeQuery,
                               @DefaultValue("1h") Duration maxOutcomeQueryInterval,
                               @DefaultValue("5") int outcomeQueriesBeforeError) {

    public static SessionTimeLimits defaults() {
        return new SessionTimeLimits(Duration.ofMinutes(240), Duration.ofMinutes(20), Duration.ofMinutes(60),
                Duration.ofMinutes(20), Duration.ofDays(5), Duration.ofSeconds(30), Duration.ofHours(1), 5);
    }

    /**
     * Whether an outcome still unknown after {@code queriesMade} queries is overdue: shown failed, with the session
     * (for a refund, the refund) in {@code error}. With the defaults, after the 5th query, 15.5 minutes after the
     * first unknown answer (30 s, 1, 2, 4 and 8 minutes).
     */
    boolean overdueAfter(int queriesMade) {
        return queriesMade >= outcomeQueriesBeforeError;
    }

    /** 20 minutes for QR-code application payments (spec), 240 otherwise (docs). */
    Duration confirmWindow(PaymentMethod method) {
        return method instanceof QrAppMethod ? qrAppConfirm : confirm;
    }

    /** The longest wait for a confirmation, whatever the method: after it, no payment waits to be authorized. */
    public Duration longestConfirmWindow() {
        return confirm.compareTo(qrAppConfirm) >= 0 ? confirm : qrAppConfirm;
    }

    /** 20 minutes for wallet and bank-application payments (spec), 60 otherwise (docs). */
    Duration payerActionWindow(PaymentMethod method) {
        return method instanceof WalletMethod || method instanceof BankAppMethod ? walletAndBankAppPayerAction : payerAction;
    }

    /** The wait before the n-th query (0-based) of a rail that did not answer: doubling, capped. */
    Duration outcomeQueryDelay(int queriesMade) {
        Duration delay = firstOutcomeQuery;
        for (int i = 0; i < queriesMade && delay.compareTo(maxOutcomeQueryInterval) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(maxOutcomeQueryInterval) > 0 ? maxOutcomeQueryInterval : delay;
    }
}
