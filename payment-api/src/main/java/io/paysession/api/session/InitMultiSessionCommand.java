package io.paysession.api.session;

import io.paysession.api.partner.PartnerTerms;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.List;

/**
 * {@code session/multi/init}: one session holding several payments and payouts, each complete, started together.
 * The payments are captured at once whatever the partner's capture mode ({@code terms} otherwise apply);
 * {@code fromBalance}: the payouts are paid from the partner's balance.
 */
public record InitMultiSessionCommand(@TargetAggregateIdentifier SessionId sessionId,
                                      String project,
                                      ApiVersion apiVersion,
                                      List<PaymentStart> payments,
                                      List<PayoutStart> payouts,
                                      PartnerTerms terms,
                                      boolean fromBalance) {

    public InitMultiSessionCommand {
        payments = List.copyOf(payments);
        payouts = List.copyOf(payouts);
    }

    /** A payment of the session, with its id. */
    public record PaymentStart(PaymentId paymentId, PaymentData payment) {
    }

    /** A payout of the session, with its id. */
    public record PayoutStart(PayoutId payoutId, PayoutData payout) {
    }
}
