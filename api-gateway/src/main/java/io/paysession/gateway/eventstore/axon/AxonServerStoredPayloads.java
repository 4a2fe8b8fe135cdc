package io.paysession.gateway.eventstore.axon;

import io.paysession.gateway.erasure.StoredPayloads;

import java.util.List;
import java.util.Optional;

/**
 * {@link StoredPayloads} on Axon Server: its events cannot be written again, so none is offered. A store kept in
 * Axon Server before personal data was encrypted keeps those events in clear (docs/erasure.md, "Limits"); everything
 * stored since is encrypted by the serializer.
 */
public final class AxonServerStoredPayloads implements StoredPayloads {

    @Override
    public List<Stored> after(long position, long upTo, int limit) {
        return List.of();
    }

    @Override
    public Optional<byte[]> firstPayloadOf(String aggregateId) {
        return Optional.empty();
    }

    @Override
    public void rewrite(long position, byte[] payload) {
        throw new UnsupportedOperationException("Axon Server's events are not written again");
    }
}
