package io.paysession.api.money;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FeeScheduleTest {

    @Test
    void feeIsFixedPlusBasisPointsOfTheAmountInItsCurrency() {
        assertThat(new FeeSchedule(250, 30).feeFor(Money.of(10_000, "eur"))).isEqualTo(Money.of(280, "eur"));
        assertThat(FeeSchedule.NONE.feeFor(Money.of(10_000, "usd"))).isEqualTo(Money.of(0, "usd"));
    }

    @ParameterizedTest(name = "{0} at {1} bp + {2} = {3}")
    @CsvSource({
            "333, 150, 0, 5",   // 4.995
            "300, 150, 0, 5",   // 4.5: half goes up
            "299, 150, 0, 4",   // 4.485
            "1,   4999, 0, 0",  // 0.4999
            "1,   5000, 0, 1",  // 0.5
            "1,   10000, 7, 8",
            "0,   250, 30, 30"})
    void feeIsRoundedHalfUpToMinorUnits(long amount, int percentBp, long fixed, long expected) {
        assertThat(new FeeSchedule(percentBp, fixed).feeFor(Money.of(amount, "eur")).minorUnits()).isEqualTo(expected);
    }

    @Test
    void largeAmountsAreComputedExactly() {
        // amount * bp alone would overflow a long here
        assertThat(new FeeSchedule(250, 30).feeFor(Money.of(922_337_203_685_477_580L, "eur")).minorUnits())
                .isEqualTo(23_058_430_092_136_970L); // 23058430092136939.5 -> ...940, + 30
        assertThat(new FeeSchedule(9_999, 0).feeFor(Money.of(Long.MAX_VALUE, "eur")).minorUnits())
                .isEqualTo(9_222_449_699_651_090_329L); // ...329.4193
        assertThat(new FeeSchedule(10_000, 0).feeFor(Money.of(Long.MAX_VALUE, "eur")).minorUnits())
                .isEqualTo(Long.MAX_VALUE);
    }

    /**
     * Changed with the bounds of the admin API: this fee used to throw, and a fee handler that throws blocks the
     * processor that runs it for good. Only a schedule stored before the bounds (or an amount the API refuses) gets
     * here; the fee saturates and never wraps.
     */
    @Test
    void feeBeyondTheRangeOfMinorUnitsSaturatesInsteadOfWrappingOrFailing() {
        assertThat(new FeeSchedule(10_000, 1).feeFor(Money.of(Long.MAX_VALUE, "eur")).minorUnits())
                .isEqualTo(Long.MAX_VALUE);
        assertThat(new FeeSchedule(250, Long.MAX_VALUE - 5).feeFor(Money.of(10_000, "eur")).minorUnits())
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theLargestAcceptedScheduleOnTheLargestAcceptedAmountIsExact() {
        long largestAmount = 1_000_000_000_000_000L;
        assertThat(new FeeSchedule(10_000, FeeSchedule.MAX_FIXED).feeFor(Money.of(largestAmount, "eur")).minorUnits())
                .isEqualTo(FeeSchedule.MAX_FIXED + largestAmount);
        assertThat(new FeeSchedule(9_999, FeeSchedule.MAX_FIXED).feeFor(Money.of(largestAmount - 1, "eur")).minorUnits())
                .isEqualTo(FeeSchedule.MAX_FIXED + 999_899_999_999_999L); // 999,899,999,999,999.0001 rounds down
    }

    @Test
    void scheduleOutsideZeroToOneHundredPercentOrWithNegativeFixedFeeIsRefused() {
        assertThatThrownBy(() -> new FeeSchedule(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FeeSchedule(10_001, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FeeSchedule(0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new FeeSchedule(10_000, 0).percentBp()).isEqualTo(10_000);
    }
}
