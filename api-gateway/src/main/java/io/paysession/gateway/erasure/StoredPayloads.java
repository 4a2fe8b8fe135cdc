package io.paysession.gateway.erasure;

import java.util.List;
import java.util.Optional;

/**
 * The event store's stored payloads, as the one-off encryption of events stored before personal data was encrypted
 * reads and writes them again ({@link StoredEventsEncryption}). A port: the JDBC store's table
 * ({@code eventstore.jdbc}), or Axon Server, whose events cannot be written again.
 */
public interface StoredPayloads {

    /** One stored event's payload as stored, at its position. */
    record Stored(long position, String aggregateId, byte[] payload, String type, String revision) {
    }

    /** Up to {@code limit} events after {@code position} and at most {@code upTo}, in the store's order. */
    List<Stored> after(long position, long upTo, int limit);

    /** The payload of the first event (sequence 0) of {@code aggregateId}, if it has one. */
    Optional<byte[]> firstPayloadOf(String aggregateId);

    /** Writes the event at {@code position} again with {@code payload}, in the caller's transaction. */
    void rewrite(long position, byte[] payload);
}
