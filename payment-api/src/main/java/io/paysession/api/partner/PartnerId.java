package io.paysession.api.partner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The identity of a partner: its project. As an aggregate identifier it is prefixed with
 * {@code partner:}, so that it can never be mistaken for a session id in the shared event store.
 */
public record PartnerId(String project) {

    /** What {@code X-PARTNER-PROJECT} and the admin API accept as a project name. */
    public static final Pattern PROJECT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    public PartnerId {
        Objects.requireNonNull(project, "project");
        if (!PROJECT.matcher(project).matches()) {
            throw new IllegalArgumentException("invalid project name");
        }
    }

    @JsonCreator
    public static PartnerId of(String project) {
        return new PartnerId(project);
    }

    @JsonValue
    public String project() {
        return project;
    }

    @Override
    public String toString() {
        return "partner:" + project;
    }
}
