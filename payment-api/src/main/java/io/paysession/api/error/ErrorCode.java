package io.paysession.api.error;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;

/**
 * The error codes of the wire contract (decisions.md section 2) with the HTTP status an API error of
 * that code gets. Decline codes also appear inside sessions, where no HTTP status applies. Events store
 * the wire code, so a constant may be renamed but its code never changes.
 */
public enum ErrorCode {
    INVALID_REQUEST("invalid_request", 400),
    AUTHENTICATION_ERROR("authentication_error", 401),
    AUTHORIZATION_ERROR("authorization_error", 403),
    SESSION_NOT_FOUND("session_not_found", 404),
    SESSION_WRONG_STATE("session_wrong_state", 400),
    IDEMPOTENCY_KEY_PARAMS_MISMATCH("idempotency_key_params_mismatch", 400),
    IDEMPOTENCY_KEY_ALREADY_EXISTS("idempotency_key_already_exists", 400),
    IDEMPOTENCY_KEY_NOT_SUPPORTED("idempotency_key_not_supported", 400),
    REFUND_AMOUNT_TOO_LARGE("refund_amount_too_large", 400),
    /** Not in the contract's list: none of its codes says "this payment takes no more refunds" (decisions.md). */
    REFUND_LIMIT_EXCEEDED("refund_limit_exceeded", 400),
    CAPTURE_AMOUNT_TOO_LARGE("capture_amount_too_large", 400),
    CARD_NUMBER_DOES_NOT_EXIST("card_number_does_not_exist", 400),
    BANK_CARD_EXPIRED("bank_card_expired", 400),
    DECLINED_BY_ISSUER_BANK("declined_by_issuer_bank", 400),
    INSUFFICIENT_FUNDS("insufficient_funds", 400),
    /** A payout from the partner's balance larger than what is left of it (production-facts section 6). */
    INSUFFICIENT_WALLET_BALANCE("insufficient_wallet_balance", 400),
    THREE_DS_ERROR("3DS_error", 400),
    PROVIDER_TIMEOUT("provider_timeout", 400),
    ACCOUNT_NOT_FOUND("account_not_found", 400),
    CONFIRM_TIMEOUT("confirm_timeout", 400),
    CAPTURE_TIMEOUT("capture_timeout", 400),
    ACTION_TIMEOUT("action_timeout", 400),
    QR_EXPIRED("qr_expired", 400),
    SESSION_CANCELLED("session_cancelled", 400),
    SESSION_CANCELLED_BY_PARTNER("session_cancelled_by_partner", 400),
    RECURRENT_TOKEN_INACTIVE("recurrent_token_inactive", 400),
    INTERNAL_ERROR("internal_error", 500),
    SERVICE_UNAVAILABLE("service_unavailable", 503);

    private final String code;
    private final int httpStatus;

    ErrorCode(String code, int httpStatus) {
        this.code = code;
        this.httpStatus = httpStatus;
    }

    @JsonValue
    public String code() {
        return code;
    }

    public int httpStatus() {
        return httpStatus;
    }

    @JsonCreator
    public static ErrorCode fromCode(String code) {
        return Arrays.stream(values())
                .filter(value -> value.code.equals(code))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown error code " + code));
    }
}
