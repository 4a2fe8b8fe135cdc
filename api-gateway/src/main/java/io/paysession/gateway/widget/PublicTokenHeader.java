package io.paysession.gateway.widget;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;

import java.util.regex.Pattern;

/** The public token of a widget's call from a payer's browser, in {@code X-PUBLIC-TOKEN} (64 hex characters). */
final class PublicTokenHeader {

    static final String NAME = "X-PUBLIC-TOKEN";
    private static final Pattern TOKEN = Pattern.compile("[0-9a-f]{64}");

    private PublicTokenHeader() {
    }

    static boolean looksLikeAToken(String text) {
        return TOKEN.matcher(text).matches();
    }

    /** One answer for unknown and expired tokens: a caller learns nothing about tokens it does not hold. */
    static PaymentsException dead() {
        return new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "The public token is unknown or expired");
    }
}
