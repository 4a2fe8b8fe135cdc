package io.paysession.command.erasure;

import io.paysession.api.session.SessionId;

import javax.crypto.SecretKey;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The data keys personal data in events is encrypted under (docs/erasure.md, "Design"): one per session, and a new one
 * when a session gets personal data again after its keys were erased. An erasure deletes the keys of the sessions a
 * data subject (a partner's customer reference) is linked to.
 */
public interface SessionKeys {

    /** A data key and its id. */
    record DataKey(String keyId, SecretKey key) {
    }

    /**
     * The key new personal data of {@code session} is encrypted under, created (in the caller's transaction) when the
     * session has none that is not erased. {@code project} names the session's partner when the caller knows it (the
     * session's first event does), else null.
     */
    DataKey writingKey(SessionId session, String project);

    /** Key {@code keyId}; empty when it was erased (the data under it now reads as erased). */
    Optional<SecretKey> key(String keyId);

    /**
     * Records that {@code session} holds data of the customer {@code reference} of {@code project} (null: the
     * session's partner as its key knows it), so that the customer's erasure finds the session.
     */
    void link(SessionId session, String project, String reference);

    /** The sessions linked to the customer {@code reference} of {@code project}. */
    List<SessionId> sessionsOf(String project, String reference);

    /** Erases every key of {@code sessions}; the number of keys erased. */
    int erase(Collection<SessionId> sessions);

    /**
     * Seals again under the active vault key up to {@code limit} keys sealed under an older one (a vault key rotation),
     * in the caller's transaction; how many.
     */
    int reSealBatch(int limit);

    /** How many keys (data keys not erased, and the index key) each vault key seals. */
    java.util.Map<String, Long> keysBySealingKey();
}
