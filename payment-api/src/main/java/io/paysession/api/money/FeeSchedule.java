package io.paysession.api.money;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A partner's merchant fee: {@code fixed + amount * percentBp / 10000}, rounded half up to minor units
 * (decisions.md section 7). {@code percentBp} is in basis points (1 bp = 0.01 %).
 */
public record FeeSchedule(int percentBp, long fixed) {

    public static final FeeSchedule NONE = new FeeSchedule(0, 0);

    public FeeSchedule {
        if (percentBp < 0 || percentBp > 10_000) {
            throw new IllegalArgumentException("percent_bp must be between 0 and 10000");
        }
        if (fixed < 0) {
            throw new IllegalArgumentException("fixed fee must not be negative");
        }
    }

    public Money feeFor(Money amount) {
        long proportional = BigDecimal.valueOf(amount.minorUnits())
                .multiply(BigDecimal.valueOf(percentBp))
                .divide(BigDecimal.valueOf(10_000), 0, RoundingMode.HALF_UP)
                .longValueExact();
        return new Money(Math.addExact(fixed, proportional), amount.currency());
    }
}
