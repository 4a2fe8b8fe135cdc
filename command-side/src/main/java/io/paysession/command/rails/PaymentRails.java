package io.paysession.command.rails;

import io.paysession.api.session.PaymentMethod;
import org.springframework.stereotype.Component;

import java.util.List;

/** Picks the rail of a payment method among the configured adapters. */
@Component
public class PaymentRails {

    private final List<PaymentRail> rails;

    public PaymentRails(List<PaymentRail> rails) {
        this.rails = List.copyOf(rails);
    }

    public PaymentRail railFor(PaymentMethod method) {
        return rails.stream().filter(rail -> rail.handles(method)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no rail handles " + method.getClass().getSimpleName()));
    }
}
