package io.paysession.webhook.delivery;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class RetryPolicyTest {

    private static final Instant CREATED = Instant.parse("2026-11-22T10:00:00Z");

    private final RetryPolicy policy = RetryPolicy.from(TestProperties.bind(Map.of()));

    @Test
    void waitsTenSecondsThenDoublesUpToAnHour() {
        List<Duration> waits = IntStream.rangeClosed(1, 13).mapToObj(policy::intervalAfter).toList();

        assertThat(waits).containsExactly(
                Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(40), Duration.ofSeconds(80),
                Duration.ofSeconds(160), Duration.ofSeconds(320), Duration.ofSeconds(640), Duration.ofSeconds(1280),
                Duration.ofSeconds(2560), Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1),
                Duration.ofHours(1));
        assertThat(policy.intervalAfter(10_000)).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void aFailedFirstAttemptIsTriedAgainTenSecondsLater() {
        assertThat(policy.afterFailedAttempt(1, CREATED, CREATED.plusMillis(300)))
                .isEqualTo(new RetryPolicy.RetryAt(CREATED.plusMillis(10_300)));
    }

    @Test
    void theLastAttemptFallsAtTheEndOfTheRetryWindow() {
        Instant now = CREATED.plus(Duration.ofHours(71).plusMinutes(30));

        assertThat(policy.afterFailedAttempt(80, CREATED, now)).isEqualTo(new RetryPolicy.RetryAt(CREATED.plus(Duration.ofHours(72))));
    }

    @Test
    void aFailureOnceTheRetryWindowIsOverParksTheNotification() {
        assertThat(policy.afterFailedAttempt(81, CREATED, CREATED.plus(Duration.ofHours(72)))).isInstanceOf(RetryPolicy.Park.class);
        assertThat(policy.afterFailedAttempt(1, CREATED, CREATED.plus(Duration.ofHours(73)))).isInstanceOf(RetryPolicy.Park.class);
    }

    @Test
    void aPartnerThatNeverAnswersIsTriedForSeventyTwoHoursThenParked() {
        List<Instant> attempts = new ArrayList<>();
        Instant now = CREATED;
        RetryPolicy.Decision decision;
        do {
            attempts.add(now);
            decision = policy.afterFailedAttempt(attempts.size(), CREATED, now);
            if (decision instanceof RetryPolicy.RetryAt retry) {
                now = retry.at();
            }
        } while (decision instanceof RetryPolicy.RetryAt);

        assertThat(attempts.get(attempts.size() - 1)).isEqualTo(CREATED.plus(Duration.ofHours(72)));
        assertThat(attempts).hasSize(81); // 10 attempts to reach the 1 h cap at 1h25m10s, then hourly, then the window end
        for (int i = 1; i < attempts.size(); i++) {
            assertThat(Duration.between(attempts.get(i - 1), attempts.get(i))).isLessThanOrEqualTo(Duration.ofHours(1));
        }
    }
}
