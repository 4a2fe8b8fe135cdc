package io.paysession.command.erasure;

import java.util.List;

/**
 * A place outside the event store that keeps personal data of sessions (a rail's own records): an erasure erases it
 * there, in the transaction that erases the sessions' keys (docs/erasure.md, "Elsewhere").
 */
public interface PersonalDataRecords {

    /** Erases what this place keeps of the personal data of {@code sessionIds}. */
    void erase(List<String> sessionIds);
}
