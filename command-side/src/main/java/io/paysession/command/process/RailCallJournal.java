package io.paysession.command.process;

import io.paysession.api.session.SessionId;

/**
 * Remembers every money-moving rail call before it is made, so that none is ever made twice: the first ask
 * for a (kind, operation id) is granted and recorded for good, every later one is refused, whoever asks
 * (the same node after a crash, another node, a redelivery from a dead-letter queue). Its record must be
 * durable before the call starts: it commits with the event's handling, and the call starts after that commit.
 */
public interface RailCallJournal {

    /** The calls that move money; their operation id is the payment's, the refund's or the payout's. */
    enum Kind {
        AUTHORIZE("authorize"), CAPTURE("capture"), REFUND("refund"), PAYOUT("payout");

        private final String column;

        Kind(String column) {
            this.column = column;
        }

        public String column() {
            return column;
        }
    }

    /**
     * True exactly once per (kind, operation id): the caller may make the call. False: it was (or may have
     * been) made before, and only its query may follow.
     */
    boolean firstCall(Kind kind, String operationId, SessionId session);
}
