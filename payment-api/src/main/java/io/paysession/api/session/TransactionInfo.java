package io.paysession.api.session;

/** What the rail reports about a completed transaction; absent values are left out on the wire. */
public record TransactionInfo(String rrn, String authCode) {
}
