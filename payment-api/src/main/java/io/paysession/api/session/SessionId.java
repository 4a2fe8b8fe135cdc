package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Optional;
import java.util.regex.Pattern;

/** {@code ps_} and a decimal number from a database sequence. */
public record SessionId(String value) {

    private static final Pattern FORMAT = Pattern.compile("ps_[1-9][0-9]{0,18}");

    public SessionId {
        if (value == null || !FORMAT.matcher(value).matches()) {
            throw new IllegalArgumentException("not a session id: " + value);
        }
    }

    @JsonCreator
    public static SessionId of(String value) {
        return new SessionId(value);
    }

    public static SessionId of(long number) {
        return new SessionId("ps_" + number);
    }

    /** Empty when the text cannot be a session id: such a session does not exist. */
    public static Optional<SessionId> parse(String value) {
        return value != null && FORMAT.matcher(value).matches() ? Optional.of(new SessionId(value)) : Optional.empty();
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
