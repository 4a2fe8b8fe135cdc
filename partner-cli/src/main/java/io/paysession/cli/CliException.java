package io.paysession.cli;

/** What went wrong, said in one line for the partner: printed as {@code error: <message>}, never as a stack trace. */
final class CliException extends RuntimeException {

    CliException(String message) {
        super(message);
    }

    CliException(String message, Throwable cause) {
        super(message, cause);
    }
}
