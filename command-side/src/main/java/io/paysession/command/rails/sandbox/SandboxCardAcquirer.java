package io.paysession.command.rails.sandbox;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.TransactionInfo;
import io.paysession.command.rails.CardAcquirer;
import io.paysession.command.rails.CardOperation;
import io.paysession.command.rails.PrecheckResult;
import io.paysession.command.vault.CardNumber;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.RevealedCard;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.YearMonth;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A simulated card acquirer: it answers after a random latency on its own threads, reads the card from
 * the vault as a real adapter would, and decides by the test-card table. Approvals carry a 12-digit RRN
 * and a 6-character authorization code.
 */
@Component
public class SandboxCardAcquirer implements CardAcquirer, DisposableBean {

    private static final String AUTH_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";

    private final CardVault vault;
    private final SandboxProperties properties;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "sandbox-card-rail");
        thread.setDaemon(true);
        return thread;
    });

    public SandboxCardAcquirer(CardVault vault, SandboxProperties properties, Clock clock) {
        this.vault = vault;
        this.properties = properties;
        this.clock = clock;
    }

    @Override
    public Optional<String> refusesAtIntake(CardNumber number) {
        if (SandboxTestCards.needsThreeDSecure(number)) {
            return Optional.of("3-D Secure cards are not supported by this version of the sandbox");
        }
        if (SandboxTestCards.timesOut(number)) {
            return Optional.of("the timing-out test card is not supported by this version of the sandbox");
        }
        return Optional.empty();
    }

    @Override
    public CompletionStage<PrecheckResult> precheck(CardOperation operation) {
        return later(() -> {
            Optional<RevealedCard> card = vault.reveal(operation.vaultToken());
            if (card.isEmpty()) {
                return new PrecheckResult.Refused(ErrorDetails.of(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST,
                        "The card is not known to the acquirer"));
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
    public CompletionStage<AuthorizationOutcome> authorize(CardOperation operation) {
        return later(() -> {
            Optional<RevealedCard> card = vault.reveal(operation.vaultToken());
            if (card.isEmpty()) {
                return new AuthorizationOutcome.Declined(ErrorDetails.of(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST,
                        "The card is not known to the acquirer"));
            }
            return SandboxTestCards.declineFor(card.get().number())
                    .<AuthorizationOutcome>map(code -> new AuthorizationOutcome.Declined(
                            ErrorDetails.of(code, declineDescription(code))))
                    .orElseGet(() -> new AuthorizationOutcome.Approved(new TransactionInfo(rrn(), authCode())));
        });
    }

    private static String declineDescription(ErrorCode code) {
        return switch (code) {
            case DECLINED_BY_ISSUER_BANK -> "The issuer bank declined the payment";
            case INSUFFICIENT_FUNDS -> "Insufficient funds on the card";
            case BANK_CARD_EXPIRED -> "The card has expired";
            default -> "The payment was declined";
        };
    }

    private <T> CompletionStage<T> later(Supplier<T> answer) {
        CompletableFuture<T> result = new CompletableFuture<>();
        scheduler.schedule(() -> {
            try {
                result.complete(answer.get());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        }, latency().toMillis(), TimeUnit.MILLISECONDS);
        return result;
    }

    private Duration latency() {
        long min = properties.cardLatencyMin().toMillis();
        long max = properties.cardLatencyMax().toMillis();
        return Duration.ofMillis(min == max ? min : ThreadLocalRandom.current().nextLong(min, max + 1));
    }

    private String rrn() {
        StringBuilder rrn = new StringBuilder(12);
        for (int i = 0; i < 12; i++) {
            rrn.append(random.nextInt(10));
        }
        return rrn.toString();
    }

    private String authCode() {
        StringBuilder code = new StringBuilder(6);
        for (int i = 0; i < 6; i++) {
            code.append(AUTH_CODE_ALPHABET.charAt(random.nextInt(AUTH_CODE_ALPHABET.length())));
        }
        return code.toString();
    }

    @Override
    public void destroy() {
        scheduler.shutdownNow();
    }
}
