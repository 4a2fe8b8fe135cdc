package io.paysession.api.session;

import io.paysession.api.money.Money;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A chargeback of the session's payment, from the acquirer (a rail adapter, the sandbox), the operator or, in the
 * sandbox, the partner ({@code session/chargeback}); {@code project} is checked when given. {@code amount} null: all
 * that is left to refund. {@code withheld}: the acquirer has already withheld the money (the operator records a
 * chargeback after the fact), so the chargeback is accepted at once.
 */
public record OpenChargebackCommand(@TargetAggregateIdentifier SessionId sessionId,
                                    RefundId refundId,
                                    String project,
                                    Money amount,
                                    String reason,
                                    boolean withheld) {
}
