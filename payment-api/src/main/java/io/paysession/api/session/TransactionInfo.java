package io.paysession.api.session;

/** What the rail reports about a completed transaction; absent values are left out on the wire. */
public record TransactionInfo(String rrn, String authCode, String fpMessageId) {

    public static TransactionInfo card(String rrn, String authCode) {
        return new TransactionInfo(rrn, authCode, null);
    }

    /** This information completed by {@code later}: a later answer of the rail wins where it says something. */
    public TransactionInfo mergedWith(TransactionInfo later) {
        if (later == null) {
            return this;
        }
        return new TransactionInfo(later.rrn != null ? later.rrn : rrn,
                later.authCode != null ? later.authCode : authCode,
                later.fpMessageId != null ? later.fpMessageId : fpMessageId);
    }
}
