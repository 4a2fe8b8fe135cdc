package io.paysession.command;

/**
 * A configuration the service refuses to start with (a sandbox in production, a missing secret): what is
 * wrong and what the operator does about it. The application prints both instead of a stack trace.
 */
public class RefusedConfigurationException extends IllegalStateException {

    private final String description;
    private final String action;

    public RefusedConfigurationException(String description, String action) {
        super(description + " " + action);
        this.description = description;
        this.action = action;
    }

    public String description() {
        return description;
    }

    public String action() {
        return action;
    }
}
