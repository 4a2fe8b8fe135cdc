package io.paysession.api.session;

import io.paysession.api.error.ErrorDetails;
import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * The rail's answer to a refund was lost (time-out, error, or a crash between the call and its recording):
 * the refund may have been paid. It is never sent again; the rail is asked about it later. The refund stays
 * {@code in_progress}.
 */
@Revision("1")
public record RefundOutcomeUnknownEvent(SessionId sessionId,
                                        PaymentId paymentId,
                                        RefundId refundId,
                                        ErrorDetails reason,
                                        int queriesMade,
                                        Instant occurredAt) implements SessionEvent {
}
