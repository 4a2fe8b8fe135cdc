package io.paysession.api.error;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ErrorCodeTest {

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void fromCodeRoundTripsEveryConstant(ErrorCode code) {
        assertThat(ErrorCode.fromCode(code.code())).isSameAs(code);
    }

    @Test
    void wireCodesAreExactlyThoseOfDecisionsSectionTwoAndTheOnesDocsDecisionsAdds() {
        assertThat(Arrays.stream(ErrorCode.values()).map(ErrorCode::code)).containsExactlyInAnyOrder(
                "invalid_request", "authentication_error", "authorization_error", "session_not_found",
                "session_wrong_state", "idempotency_key_params_mismatch", "idempotency_key_already_exists",
                "idempotency_key_not_supported", "refund_amount_too_large", "capture_amount_too_large",
                "card_number_does_not_exist", "bank_card_expired", "declined_by_issuer_bank", "insufficient_funds",
                "3DS_error", "provider_timeout", "account_not_found", "confirm_timeout", "capture_timeout",
                "action_timeout", "qr_expired", "session_cancelled", "session_cancelled_by_partner",
                "recurrent_token_inactive", "internal_error", "service_unavailable",
                // docs/decisions.md, "Unbounded input"
                "refund_limit_exceeded",
                // docs/decisions.md, "Payouts from the balance" (production-facts section 6 names it)
                "insufficient_wallet_balance");
    }

    @ParameterizedTest
    @CsvSource({"invalid_request, 400", "session_wrong_state, 400", "idempotency_key_params_mismatch, 400",
            "authentication_error, 401", "authorization_error, 403", "session_not_found, 404",
            "internal_error, 500", "service_unavailable, 503"})
    void httpStatusFollowsDecisionsSectionOne(String code, int status) {
        assertThat(ErrorCode.fromCode(code).httpStatus()).isEqualTo(status);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"3ds_error", "THREE_DS_ERROR", "Invalid_request", ""})
    void unknownCodeIsRefused(String code) {
        assertThatThrownBy(() -> ErrorCode.fromCode(code)).isInstanceOf(IllegalArgumentException.class);
    }
}
