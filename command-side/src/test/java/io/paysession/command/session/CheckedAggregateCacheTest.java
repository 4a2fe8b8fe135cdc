package io.paysession.command.session;

import org.axonframework.common.caching.Cache;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.CachingEventSourcingRepository;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.eventsourcing.EventSourcingRepository;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.inspection.AnnotatedAggregateMetaModelFactory;
import org.junit.jupiter.api.AfterEach;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * The aggregate cache never hands out an aggregate another node has moved on: several nodes share one store, and a
 * command refused on stale state would append nothing, so no conflict would ever catch it.
 */
class CheckedAggregateCacheTest {

    private final EmbeddedEventStore store = EmbeddedEventStore.builder()
            .storageEngine(new InMemoryEventStorageEngine()).build();
    private final AtomicInteger loadsFromTheStore = new AtomicInteger();

    /** Another test class of this JVM may have left a unit of work open on this thread: none of ours may nest in it. */
    @BeforeEach
    void noUnitOfWorkLeftOpen() {
        while (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().rollback();
        }
    }

    @AfterEach
    void shutDown() {
        store.shutDown();
    }

    @Test
    void anAggregateIsServedFromTheCacheUntilAnotherNodeAppendsToItThenReadFromTheStore() {
        CheckedAggregateCache<Counter> cache = new CheckedAggregateCache<>(100, () -> new CheckedAggregateCache.Axon<>() {
            @Override
            public org.axonframework.modelling.command.inspection.AggregateModel<Counter> model() {
                return AnnotatedAggregateMetaModelFactory.inspectAggregate(Counter.class);
            }

            @Override
            public org.axonframework.eventsourcing.eventstore.EventStore eventStore() {
                return store;
            }
        });
        EventSourcingRepository<Counter> repository = repository(cache);
        inUnitOfWork(() -> {
            try {
                repository.newInstance(() -> new Counter("c1"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        inUnitOfWork(() -> repository.load("c1").execute(Counter::increment));
        assertThat(cache.size()).isEqualTo(1);
        int loads = loadsFromTheStore.get();

        assertThat(countOf(repository, "c1")).isEqualTo(1);
        assertThat(loadsFromTheStore.get()).as("served from the cache").isEqualTo(loads);

        // another node, sharing the store, increments the counter
        store.publish(new GenericDomainEventMessage<>("Counter", "c1", 2, new Incremented("c1")));

        assertThat(countOf(repository, "c1")).as("the store's state, not the cached one").isEqualTo(2);
        assertThat(loadsFromTheStore.get()).isEqualTo(loads + 1);
        assertThat(countOf(repository, "c1")).isEqualTo(2);
        assertThat(loadsFromTheStore.get()).as("cached again after the fresh load").isEqualTo(loads + 1);
    }

    @Test
    void withoutTheCheckAxonsCacheWouldServeTheStaleAggregate() {
        Cache plain = new MapCache();
        EventSourcingRepository<Counter> repository = repository(plain);
        inUnitOfWork(() -> {
            try {
                repository.newInstance(() -> new Counter("c2"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        store.publish(new GenericDomainEventMessage<>("Counter", "c2", 1, new Incremented("c2")));

        assertThat(countOf(repository, "c2")).as("what the check exists for").isZero();
    }

    private EventSourcingRepository<Counter> repository(Cache cache) {
        return CachingEventSourcingRepository.builder(Counter.class)
                .eventStore(store)
                .cache(cache)
                .aggregateFactory(new org.axonframework.eventsourcing.GenericAggregateFactory<>(Counter.class) {
                    @Override
                    protected Counter postProcessInstance(Counter aggregate) {
                        loadsFromTheStore.incrementAndGet();
                        return aggregate;
                    }
                })
                .build();
    }

    private int countOf(EventSourcingRepository<Counter> repository, String id) {
        int[] count = new int[1];
        inUnitOfWork(() -> repository.load(id).execute(counter -> count[0] = counter.count));
        return count[0];
    }

    /** Axon's cache contract on a plain map, without any check. */
    private static final class MapCache implements Cache {
        private final java.util.Map<Object, Object> entries = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        @SuppressWarnings("unchecked")
        public <K, V> V get(K key) {
            return (V) entries.get(key);
        }

        @Override
        public void put(Object key, Object value) {
            entries.put(key, value);
        }

        @Override
        public boolean putIfAbsent(Object key, Object value) {
            return entries.putIfAbsent(key, value) == null;
        }

        @Override
        public boolean remove(Object key) {
            return entries.remove(key) != null;
        }

        @Override
        public boolean containsKey(Object key) {
            return entries.containsKey(key);
        }

        @Override
        public org.axonframework.common.Registration registerCacheEntryListener(EntryListener listener) {
            return () -> true;
        }
    }

    private void inUnitOfWork(Runnable work) {
        DefaultUnitOfWork.startAndGet(null).execute(work);
    }

    record Created(String id) {
    }

    record Incremented(String id) {
    }

    static class Counter {
        @AggregateIdentifier
        private String id;
        int count;

        Counter() {
        }

        Counter(String id) {
            apply(new Created(id));
        }

        void increment() {
            apply(new Incremented(id));
        }

        @EventSourcingHandler
        void on(Created created) {
            id = created.id();
        }

        @EventSourcingHandler
        void on(Incremented incremented) {
            count++;
        }
    }
}
