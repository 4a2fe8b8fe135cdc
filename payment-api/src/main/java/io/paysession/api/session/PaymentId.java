package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.regex.Pattern;

/** {@code pm_} and a decimal number from a database sequence. */
public record PaymentId(String value) {

    private static final Pattern FORMAT = Pattern.compile("pm_[1-9][0-9]{0,18}");

    public PaymentId {
        if (value == null || !FORMAT.matcher(value).matches()) {
            throw new IllegalArgumentException("not a payment id: " + value);
        }
    }

    @JsonCreator
    public static PaymentId of(String value) {
        return new PaymentId(value);
    }

    public static PaymentId of(long number) {
        return new PaymentId("pm_" + number);
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
