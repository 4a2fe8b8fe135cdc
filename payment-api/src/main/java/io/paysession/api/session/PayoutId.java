package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.regex.Pattern;

/** {@code po_} and a decimal number from a database sequence. */
public record PayoutId(String value) {

    private static final Pattern FORMAT = Pattern.compile("po_[1-9][0-9]{0,18}");

    public PayoutId {
        if (value == null || !FORMAT.matcher(value).matches()) {
            throw new IllegalArgumentException("not a payout id: " + value);
        }
    }

    @JsonCreator
    public static PayoutId of(String value) {
        return new PayoutId(value);
    }

    public static PayoutId of(long number) {
        return new PayoutId("po_" + number);
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
