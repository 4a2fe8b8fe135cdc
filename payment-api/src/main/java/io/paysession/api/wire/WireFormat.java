package io.paysession.api.wire;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Wire-format rules shared by responses and webhooks (decisions.md section 1). */
public final class WireFormat {

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private WireFormat() {
    }

    /** UTC, microseconds, {@code Z}: {@code 2026-11-22T10:15:30.123456Z}. */
    public static String timestamp(Instant instant) {
        return TIMESTAMP.format(instant);
    }

    /** The current instant truncated to microseconds, the precision every stored time has. */
    public static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
