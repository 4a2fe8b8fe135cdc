package io.paysession.command.session;

import com.github.benmanes.caffeine.cache.Caffeine;
import org.axonframework.common.Registration;
import org.axonframework.common.caching.Cache;
import org.axonframework.eventsourcing.AggregateCacheEntry;
import org.axonframework.eventsourcing.NoSnapshotTriggerDefinition;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.modelling.command.inspection.AggregateModel;
import org.axonframework.modelling.command.inspection.AnnotatedAggregateMetaModelFactory;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Axon's aggregate cache for one aggregate type, bounded (Caffeine), that hands out an aggregate only when no event
 * was stored for it since it was cached: the store's last sequence number for the aggregate (one indexed read, in the
 * command's transaction) must equal the cached aggregate's version.
 * <p>
 * Why the check: several nodes share one store. A cached aggregate another node has moved on would still be caught
 * when it appends (the store refuses a sequence number twice, and Axon's caching repository drops the entry on the
 * rollback), but a command it <em>refuses</em> appends nothing: on stale state, a confirm the session now allows would
 * be refused, and a rail's answer lost. With the check, a stale entry is dropped and the aggregate is read from the
 * store as without a cache. What the cache saves is reading and deserializing the session's events and applying them
 * again, for every command.
 * <p>
 * The aggregate's version is read through Axon's own {@link AggregateCacheEntry#recreateAggregate}, with the aggregate
 * model built from the application's parameter resolvers and handler definitions (given lazily: the Axon
 * configuration that builds the repository is the one that gives them).
 */
public final class CheckedAggregateCache<T> implements Cache {

    /** What the cache needs from the Axon configuration, once it is built. */
    public interface Axon<T> {
        AggregateModel<T> model();

        EventStore eventStore();
    }

    private final com.github.benmanes.caffeine.cache.Cache<Object, Object> entries;
    private final Supplier<Axon<T>> axon;
    private volatile Axon<T> resolved;

    public CheckedAggregateCache(long maximumSize, Supplier<Axon<T>> axon) {
        this.entries = Caffeine.newBuilder().maximumSize(maximumSize).build();
        this.axon = axon;
    }

    /** An {@link Axon} with the model inspected from {@code type} and the resolvers given. */
    public static <T> Axon<T> axon(Class<T> type, org.axonframework.config.Configuration configuration) {
        AggregateModel<T> model = AnnotatedAggregateMetaModelFactory.inspectAggregate(type,
                configuration.parameterResolverFactory(), configuration.handlerDefinition(type));
        EventStore eventStore = configuration.eventStore();
        return new Axon<>() {
            @Override
            public AggregateModel<T> model() {
                return model;
            }

            @Override
            public EventStore eventStore() {
                return eventStore;
            }
        };
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> V get(K key) {
        Object value = entries.getIfPresent(key);
        if (value instanceof AggregateCacheEntry<?> entry && !current(key.toString(), (AggregateCacheEntry<T>) entry)) {
            entries.asMap().remove(key, value);
            return null;
        }
        return (V) value;
    }

    private boolean current(String aggregateId, AggregateCacheEntry<T> entry) {
        Axon<T> resolvedAxon = axon();
        Long cached = entry.recreateAggregate(resolvedAxon.model(), resolvedAxon.eventStore(),
                NoSnapshotTriggerDefinition.INSTANCE).version();
        Optional<Long> stored = resolvedAxon.eventStore().lastSequenceNumberFor(aggregateId);
        return stored.isPresent() && Objects.equals(cached, stored.get());
    }

    private Axon<T> axon() {
        Axon<T> known = resolved;
        if (known == null) {
            known = axon.get();
            resolved = known;
        }
        return known;
    }

    @Override
    public void put(Object key, Object value) {
        entries.put(key, value);
    }

    @Override
    public boolean putIfAbsent(Object key, Object value) {
        return entries.asMap().putIfAbsent(key, value) == null;
    }

    @Override
    public boolean remove(Object key) {
        return entries.asMap().remove(key) != null;
    }

    @Override
    public void removeAll() {
        entries.invalidateAll();
    }

    @Override
    public boolean containsKey(Object key) {
        return entries.asMap().containsKey(key);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> void computeIfPresent(Object key, UnaryOperator<V> update) {
        entries.asMap().computeIfPresent(key, (k, v) -> update.apply((V) v));
    }

    /** Entry listeners are not supported: nothing in the service listens to the aggregate cache. */
    @Override
    public Registration registerCacheEntryListener(EntryListener listener) {
        throw new UnsupportedOperationException("the aggregate cache has no entry listeners");
    }

    /** Aggregates kept. */
    public long size() {
        return entries.estimatedSize();
    }
}
