package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.regex.Pattern;

/** {@code rf_} and a decimal number from a database sequence. */
public record RefundId(String value) {

    private static final Pattern FORMAT = Pattern.compile("rf_[1-9][0-9]{0,18}");

    public RefundId {
        if (value == null || !FORMAT.matcher(value).matches()) {
            throw new IllegalArgumentException("not a refund id: " + value);
        }
    }

    @JsonCreator
    public static RefundId of(String value) {
        return new RefundId(value);
    }

    public static RefundId of(long number) {
        return new RefundId("rf_" + number);
    }

    @JsonValue
    @Override
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }
}
