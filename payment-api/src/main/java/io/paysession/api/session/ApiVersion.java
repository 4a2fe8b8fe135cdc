package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;
import java.util.Optional;

/**
 * The API version picked by the path; it names the lists and the payout details (decisions.md section 1).
 * A session's webhooks use the version of the request that created it.
 */
public enum ApiVersion {
    V1("v1", "acquiring_payments", "payments", "payment_method"),
    V2("v2", "payment_list", "payout_list", "payout_details");

    private final String pathSegment;
    private final String paymentListName;
    private final String payoutListName;
    private final String payoutDetailsName;

    ApiVersion(String pathSegment, String paymentListName, String payoutListName, String payoutDetailsName) {
        this.pathSegment = pathSegment;
        this.paymentListName = paymentListName;
        this.payoutListName = payoutListName;
        this.payoutDetailsName = payoutDetailsName;
    }

    @JsonValue
    public String pathSegment() {
        return pathSegment;
    }

    public String paymentListName() {
        return paymentListName;
    }

    public String payoutListName() {
        return payoutListName;
    }

    public String payoutDetailsName() {
        return payoutDetailsName;
    }

    @JsonCreator
    public static ApiVersion fromPathSegment(String segment) {
        return parse(segment).orElseThrow(() -> new IllegalArgumentException("unknown API version " + segment));
    }

    public static Optional<ApiVersion> parse(String segment) {
        return Arrays.stream(values()).filter(version -> version.pathSegment.equals(segment)).findFirst();
    }
}
