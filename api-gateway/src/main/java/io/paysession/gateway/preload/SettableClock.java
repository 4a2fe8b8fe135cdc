package io.paysession.gateway.preload;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The clock of a preloaded session's moment: the modules' classes stamp their rows with the time the service would have. */
final class SettableClock extends Clock {

    private Instant now = Instant.EPOCH;

    void set(Instant instant) {
        now = instant;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the preload's clock is UTC");
    }

    @Override
    public Instant instant() {
        return now;
    }
}
