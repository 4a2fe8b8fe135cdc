package io.paysession.api.recurrent;

import io.paysession.api.session.PaymentMethod;

import java.time.Instant;

/** A recurrent token as the read side knows it; {@code disabledAt} is null while it is active. */
public record RecurrentTokenView(String token, String project, PaymentMethod source, Instant createdAt,
                                 Instant disabledAt) {

    public boolean active() {
        return disabledAt == null;
    }
}
