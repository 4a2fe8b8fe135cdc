package io.paysession.api.money;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A partner's merchant fee: {@code fixed + amount * percentBp / 10000}, rounded half up to minor units
 * (decisions.md section 7). {@code percentBp} is in basis points (1 bp = 0.01 %).
 * <p>
 * The admin API accepts {@code fixed} up to {@link #MAX_FIXED} and amounts are at most 10^15 minor units, so every
 * fee of an accepted schedule on an accepted amount is at most 2 * 10^15 and computed exactly. Schedules stored
 * before that bound existed may hold any {@code long}: their fee is computed without ever throwing (a fee handler that
 * throws blocks the processor that runs it), and saturates at {@link Long#MAX_VALUE}.
 */
public record FeeSchedule(int percentBp, long fixed) {

    public static final FeeSchedule NONE = new FeeSchedule(0, 0);
    /** The largest fixed fee the admin API accepts: 10^15 minor units, the largest amount a payment may have. */
    public static final long MAX_FIXED = 1_000_000_000_000_000L;
    private static final BigDecimal LARGEST_FEE = BigDecimal.valueOf(Long.MAX_VALUE);

    public FeeSchedule {
        if (percentBp < 0 || percentBp > 10_000) {
            throw new IllegalArgumentException("percent_bp must be between 0 and 10000");
        }
        if (fixed < 0) {
            throw new IllegalArgumentException("fixed fee must not be negative");
        }
    }

    public Money feeFor(Money amount) {
        BigDecimal fee = BigDecimal.valueOf(amount.minorUnits())
                .multiply(BigDecimal.valueOf(percentBp))
                .divide(BigDecimal.valueOf(10_000), 0, RoundingMode.HALF_UP)
                .add(BigDecimal.valueOf(fixed));
        return new Money(fee.min(LARGEST_FEE).longValueExact(), amount.currency());
    }
}
