package io.paysession.api.partner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;
import java.util.Optional;

/** Whether a partner's payments are captured at once or held until {@code session/capture}. */
public enum CaptureMode {
    AUTO("auto"),
    DELAYED("delayed");

    private final String wireName;

    CaptureMode(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static CaptureMode fromWireName(String name) {
        return parse(name).orElseThrow(() -> new IllegalArgumentException("unknown capture mode " + name));
    }

    public static Optional<CaptureMode> parse(String name) {
        return Arrays.stream(values()).filter(mode -> mode.wireName.equals(name)).findFirst();
    }
}
