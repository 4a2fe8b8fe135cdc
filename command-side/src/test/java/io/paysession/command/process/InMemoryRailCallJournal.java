package io.paysession.command.process;

import io.paysession.api.session.SessionId;

import java.util.HashSet;
import java.util.Set;

/** The journal's contract without its table: the first ask per (kind, operation id) is granted, no later one. */
final class InMemoryRailCallJournal implements RailCallJournal {

    private final Set<String> calls = new HashSet<>();

    @Override
    public synchronized boolean firstCall(Kind kind, String operationId, SessionId session) {
        return calls.add(kind + " " + operationId);
    }
}
