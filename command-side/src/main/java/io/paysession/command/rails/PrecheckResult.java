package io.paysession.command.rails;

import io.paysession.api.error.ErrorDetails;

/** The rail's answer before the partner is asked to confirm: go on, or refused with a reason. */
public sealed interface PrecheckResult {

    record Passed() implements PrecheckResult {
    }

    record Refused(ErrorDetails reason) implements PrecheckResult {
    }
}
