package io.paysession.gateway.eventstore;

import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.wire.PaymentJson;
import io.paysession.query.audit.StoredEvents;
import io.paysession.query.audit.StoredEvents.StoredEvent;
import io.paysession.query.settlement.WalletBalances;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.serialization.AnnotationRevisionResolver;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Date;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the service asks of the event store beyond Axon's own API, as ports ({@link EventPositions},
 * {@link StoredEvents}, {@link WalletBalances}): every adapter passes this contract, the JDBC store's
 * ({@link JdbcEventStorePortsTest}) and the ones that use Axon's event store API only, as on Axon Server
 * ({@link AxonApiEventStorePortsTest}, on Axon's in-memory store, whose tokens are Axon Server's kind).
 */
abstract class EventStorePortsContract {

    /** A stored event's payload in these tests. */
    record Noted(String session, String text) {
    }

    static final Serializer SERIALIZER = JacksonSerializer.builder()
            .objectMapper(PaymentJson.newObjectMapper())
            .revisionResolver(new AnnotationRevisionResolver())
            .build();

    private static DataSource dataSource;

    protected final JdbcTemplate jdbc = new JdbcTemplate(database());
    protected EventStore eventStore;
    protected EventPositions positions;
    protected StoredEvents storedEvents;
    protected WalletBalances balances;
    private final Map<String, Long> nextSequence = new java.util.HashMap<>();

    /** A fresh, empty store of the adapter's kind, and the adapters on it. */
    abstract void openStore();

    abstract void closeStore();

    /** One embedded PostgreSQL for both adapters' tests, with every module's migrations; the JVM's end stops it. */
    static synchronized DataSource database() {
        if (dataSource == null) {
            EmbeddedPostgres postgres;
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(postgres)));
            dataSource = postgres.getPostgresDatabase();
            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
        }
        return dataSource;
    }

    private static void stop(EmbeddedPostgres postgres) {
        try {
            postgres.close();
        } catch (IOException ignored) {
            // the JVM ends anyway
        }
    }

    @BeforeEach
    void open() {
        assertThat(CurrentUnitOfWork.isStarted()).as("a unit of work another test left on this thread would take the "
                + "events appended here and never store them").isFalse();
        jdbc.execute("truncate domain_event_entry, settlement_entry");
        openStore();
    }

    @AfterEach
    void close() {
        closeStore();
    }

    /** Appends one event to each session's stream, in this order, stored at {@code at}. */
    List<DomainEventMessage<?>> append(Instant at, String... sessions) {
        List<DomainEventMessage<?>> messages = new ArrayList<>();
        for (String session : sessions) {
            long sequence = nextSequence.merge(session, 1L, Long::sum) - 1;
            messages.add(new GenericDomainEventMessage<>("Session", session, sequence,
                    new Noted(session, "event " + sequence), MetaData.with("request_id", "rq-" + session + "-" + sequence),
                    UUID.randomUUID().toString(), at));
        }
        eventStore.publish(messages);
        return messages;
    }

    /** Every stored event as a tracking processor receives it, in the store's order. */
    List<TrackedEventMessage<?>> tracked() {
        long head = storedEvents.maxGlobalIndex();
        List<TrackedEventMessage<?>> tracked = new ArrayList<>();
        try (BlockingStream<TrackedEventMessage<?>> stream = eventStore.openStream(null)) {
            while (stream.hasNextAvailable()) {
                TrackedEventMessage<?> message = stream.nextAvailable();
                tracked.add(message);
                if (positions.positionOf(message).orElseThrow() == head) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return tracked;
    }

    private static final Instant T = Instant.parse("2026-11-27T10:00:00Z");

    @Test
    void everyTrackedEventHasItsOwnPositionRisingInTheStoresOrderAndTheStoreReadsTheSame() {
        append(T, "ps_1", "ps_2", "ps_1");
        append(T.plusSeconds(1), "ps_3", "ps_2");

        List<TrackedEventMessage<?>> tracked = tracked();
        Map<String, Long> byPosition = new LinkedHashMap<>();
        for (TrackedEventMessage<?> message : tracked) {
            byPosition.put(message.getIdentifier(), positions.positionOf(message).orElseThrow());
        }
        assertThat(byPosition).hasSize(5);
        assertThat(new ArrayList<>(byPosition.values())).isSorted().doesNotHaveDuplicates();
        Map<String, Long> read = new LinkedHashMap<>();
        storedEvents.forEach(Long.MAX_VALUE, stored -> read.put(stored.eventId(), stored.globalIndex()));
        assertThat(read).containsExactlyEntriesOf(byPosition);
        assertThat(storedEvents.maxGlobalIndex()).isEqualTo(byPosition.values().stream().mapToLong(p -> p).max().orElseThrow());
    }

    @Test
    void anEventNotTrackedHasEitherNoPositionOrItsOwn() {
        List<DomainEventMessage<?>> appended = append(T, "ps_1", "ps_2");
        Map<String, Long> tracked = new LinkedHashMap<>();
        tracked().forEach(message -> tracked.put(message.getIdentifier(), positions.positionOf(message).orElseThrow()));

        for (DomainEventMessage<?> message : appended) {
            positions.positionOf(message).ifPresent(position ->
                    assertThat(position).isEqualTo(tracked.get(message.getIdentifier())));
        }
    }

    @Test
    void anEmptyStoreHasNoPositionAndNoEvents() {
        assertThat(storedEvents.maxGlobalIndex()).isEqualTo(-1);
        assertThat(storedEvents.count(Long.MAX_VALUE)).isZero();
        List<StoredEvent> all = new ArrayList<>();
        storedEvents.forEach(Long.MAX_VALUE, all::add);
        storedEvents.forEachPageByAggregate(Long.MAX_VALUE, all::addAll);
        assertThat(all).isEmpty();
        assertThat(storedEvents.ofAggregate("ps_1")).isEmpty();
    }

    @Test
    void storedEventsCarryThePayloadTheMetadataAndTheirPlaceUpToAPosition() {
        append(T, "ps_1", "ps_2");
        long middle = storedEvents.maxGlobalIndex();
        List<DomainEventMessage<?>> later = append(T.plusSeconds(5), "ps_1", "ps_3");

        assertThat(storedEvents.count(middle)).isEqualTo(2);
        assertThat(storedEvents.count(Long.MAX_VALUE)).isEqualTo(4);
        List<StoredEvent> upToMiddle = new ArrayList<>();
        storedEvents.forEach(middle, upToMiddle::add);
        assertThat(upToMiddle).extracting(StoredEvent::aggregateId, StoredEvent::sequence)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ps_1", 0L), org.assertj.core.groups.Tuple.tuple("ps_2", 0L));

        List<StoredEvent> all = new ArrayList<>();
        storedEvents.forEach(Long.MAX_VALUE, all::add);
        StoredEvent last = all.get(3);
        assertThat(last.eventId()).isEqualTo(later.get(1).getIdentifier());
        assertThat(storedEvents.payload(last)).isEqualTo(new Noted("ps_3", "event 0"));
        assertThat(storedEvents.payloadJson(last).path("text").asText()).isEqualTo("event 0");
        assertThat(last.simpleType()).isEqualTo("EventStorePortsContract$Noted");
        assertThat(storedEvents.metaData(last).get("request_id")).isEqualTo("rq-ps_3-0");
        assertThat(Instant.parse(last.timestamp())).isEqualTo(T.plusSeconds(5));
    }

    @Test
    void sessionBySessionEachInItsOrderWithTheStoresPositions() {
        append(T, "ps_b", "ps_a", "ps_b");
        long upTo = storedEvents.maxGlobalIndex();
        append(T, "ps_a", "ps_c");
        Map<String, Long> positionOfEvent = new LinkedHashMap<>();
        storedEvents.forEach(Long.MAX_VALUE, stored -> positionOfEvent.put(stored.eventId(), stored.globalIndex()));

        List<StoredEvent> bySession = new ArrayList<>();
        storedEvents.forEachPageByAggregate(upTo, bySession::addAll);

        assertThat(bySession).extracting(StoredEvent::aggregateId, StoredEvent::sequence).containsExactly(
                org.assertj.core.groups.Tuple.tuple("ps_a", 0L), org.assertj.core.groups.Tuple.tuple("ps_b", 0L),
                org.assertj.core.groups.Tuple.tuple("ps_b", 1L));
        bySession.forEach(stored -> assertThat(stored.globalIndex()).isEqualTo(positionOfEvent.get(stored.eventId())));
        assertThat(storedEvents.payload(bySession.get(2))).isEqualTo(new Noted("ps_b", "event 1"));
    }

    @Test
    void oneSessionsEventsInTheirOrderWithTheirPositionsWhereTheStoreTellsThem() {
        append(T, "ps_1", "ps_2", "ps_1", "ps_1");
        Map<String, Long> positionOfEvent = new LinkedHashMap<>();
        storedEvents.forEach(Long.MAX_VALUE, stored -> positionOfEvent.put(stored.eventId(), stored.globalIndex()));

        List<StoredEvent> session = storedEvents.ofAggregate("ps_1");

        assertThat(session).extracting(StoredEvent::sequence).containsExactly(0L, 1L, 2L);
        assertThat(session).extracting(stored -> storedEvents.payload(stored)).containsExactly(
                new Noted("ps_1", "event 0"), new Noted("ps_1", "event 1"), new Noted("ps_1", "event 2"));
        session.stream().filter(StoredEvent::positionKnown).forEach(stored ->
                assertThat(stored.globalIndex()).isEqualTo(positionOfEvent.get(stored.eventId())));
    }

    @Test
    void theSessionsStartedByAPosition() {
        append(T, "ps_1", "ps_2");
        long upTo = storedEvents.maxGlobalIndex();
        append(T, "ps_2", "ps_3");

        assertThat(storedEvents.startedBy(List.of("ps_1", "ps_3", "ps_unknown"), upTo)).containsExactly("ps_1");
        assertThat(storedEvents.startedBy(List.of("ps_2", "ps_3"), Long.MAX_VALUE)).isEqualTo(Set.of("ps_2", "ps_3"));
        assertThat(storedEvents.startedBy(List.of(), Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void aLargeStoreComesInPagesOfAtMostAThousand() {
        String[] sessions = new String[2_345];
        for (int i = 0; i < sessions.length; i++) {
            sessions[i] = "ps_" + (i % 700);
        }
        append(T, sessions);

        List<Integer> pages = new ArrayList<>();
        storedEvents.forEachPage(Long.MAX_VALUE, page -> pages.add(page.size()));
        List<Integer> sessionPages = new ArrayList<>();
        List<StoredEvent> bySession = new ArrayList<>();
        storedEvents.forEachPageByAggregate(Long.MAX_VALUE, page -> {
            sessionPages.add(page.size());
            bySession.addAll(page);
        });

        assertThat(pages).allMatch(size -> size <= 1000).contains(1000);
        assertThat(pages.stream().mapToInt(Integer::intValue).sum()).isEqualTo(2_345);
        assertThat(sessionPages).allMatch(size -> size <= 1000);
        assertThat(bySession).hasSize(2_345);
        assertThat(bySession).extracting(StoredEvent::aggregateId).isSorted();
    }

    @Test
    void aBalanceCountsTheInstantsOwnDayUpToTheEventsStoredByTheInstant() {
        Instant morning = Instant.parse("2026-11-27T08:00:00Z");
        Instant noon = Instant.parse("2026-11-27T12:00:00Z");
        List<DomainEventMessage<?>> stored = new ArrayList<>();
        stored.addAll(append(morning.minusSeconds(86_400), "ps_yesterday"));
        stored.addAll(append(morning, "ps_morning"));
        stored.addAll(append(noon.plusSeconds(60), "ps_afternoon"));
        Map<String, Long> positionOfEvent = new LinkedHashMap<>();
        storedEvents.forEach(Long.MAX_VALUE, event -> positionOfEvent.put(event.eventId(), event.globalIndex()));
        entry(stored.get(0), positionOfEvent, 1_000);
        entry(stored.get(1), positionOfEvent, 200);
        entry(stored.get(2), positionOfEvent, 30);

        assertThat(balances.at("shop", noon)).containsExactly(Map.entry("eur", 1_200L));
        assertThat(balances.at("shop", noon.plusSeconds(120))).containsExactly(Map.entry("eur", 1_230L));
        assertThat(balances.at("shop", morning.minusSeconds(60))).containsExactly(Map.entry("eur", 1_000L));
        assertThat(balances.at("other", noon)).isEmpty();
    }

    /** A settlement entry of {@code event}'s session, on the day it was stored, at its position. */
    private void entry(DomainEventMessage<?> event, Map<String, Long> positionOfEvent, long net) {
        jdbc.update("insert into settlement_entry (entry_id, project, day, currency, method, operation, session_id,"
                        + " operation_id, gross, fee, net, global_index) values (?, 'shop', ?, 'eur', 'card', 'payment', ?,"
                        + " 'pm_1', ?, 0, ?, ?)", event.getIdentifier(),
                Date.valueOf(LocalDate.ofInstant(event.getTimestamp(), ZoneOffset.UTC)), event.getAggregateIdentifier(),
                net, net, positionOfEvent.get(event.getIdentifier()));
    }
}
