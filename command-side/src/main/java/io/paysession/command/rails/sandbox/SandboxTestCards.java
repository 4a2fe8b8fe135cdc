package io.paysession.command.rails.sandbox;

import io.paysession.api.error.ErrorCode;
import io.paysession.command.vault.CardNumber;

import java.util.Map;
import java.util.Optional;

/**
 * The sandbox outcomes by card number (decisions.md section 4), plus one card whose payments succeed and
 * whose refunds are declined, and one whose outcome stays unknown for a long time before it succeeds. Any other Luhn-valid number is approved.
 */
final class SandboxTestCards {

    static final String THREE_D_SECURE = "4000000000003220";
    static final String RAIL_TIMEOUT = "4000000000000119";
    static final String STAYS_UNKNOWN = "4000000000000127";
    static final String CHARGED_BACK = "4000000000000259";
    static final String REFUND_DECLINED = "4000000000005126";

    private static final Map<String, ErrorCode> DECLINES = Map.of(
            "4000000000000002", ErrorCode.DECLINED_BY_ISSUER_BANK,
            "4000000000009995", ErrorCode.INSUFFICIENT_FUNDS,
            "4000000000000069", ErrorCode.BANK_CARD_EXPIRED);

    private SandboxTestCards() {
    }

    static Optional<ErrorCode> declineFor(CardNumber number) {
        return Optional.ofNullable(DECLINES.get(number.digits()));
    }

    static boolean needsThreeDSecure(CardNumber number) {
        return THREE_D_SECURE.equals(number.digits());
    }

    static boolean timesOut(CardNumber number) {
        return RAIL_TIMEOUT.equals(number.digits());
    }

    /** The rail times out, and its queries find the outcome unknown for a long time ({@code long-unknown}). */
    static boolean staysUnknown(CardNumber number) {
        return STAYS_UNKNOWN.equals(number.digits());
    }

    /** Paid, then disputed by the cardholder's bank: a chargeback of the whole payment follows. */
    static boolean chargedBack(CardNumber number) {
        return CHARGED_BACK.equals(number.digits());
    }

    static boolean refusesRefunds(CardNumber number) {
        return REFUND_DECLINED.equals(number.digits());
    }
}
