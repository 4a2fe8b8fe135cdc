package io.paysession.api.session;

import io.paysession.api.partner.PartnerTerms;

/** What the rail reports about a completed transaction; absent values are left out on the wire. */
public record TransactionInfo(String rrn, String authCode, String fpMessageId, String bankAccountRuToken) {

    public TransactionInfo(String rrn, String authCode, String fpMessageId) {
        this(rrn, authCode, fpMessageId, null);
    }

    public static TransactionInfo card(String rrn, String authCode) {
        return new TransactionInfo(rrn, authCode, null, null);
    }

    /** This information without the payer's account token, for partners who did not ask for it. */
    public TransactionInfo withoutAccountToken() {
        return new TransactionInfo(rrn, authCode, fpMessageId, null);
    }

    /** This information as a partner with {@code terms} sees it: the account token only if it is enabled for them. */
    public TransactionInfo shownUnder(PartnerTerms terms) {
        return terms.bankAccountToken() ? this : withoutAccountToken();
    }

    /** This information completed by {@code later}: a later answer of the rail wins where it says something. */
    public TransactionInfo mergedWith(TransactionInfo later) {
        if (later == null) {
            return this;
        }
        return new TransactionInfo(later.rrn != null ? later.rrn : rrn,
                later.authCode != null ? later.authCode : authCode,
                later.fpMessageId != null ? later.fpMessageId : fpMessageId,
                later.bankAccountRuToken != null ? later.bankAccountRuToken : bankAccountRuToken);
    }
}
