package io.paysession.gateway.preload;

import io.paysession.api.wire.PaymentJson;
import io.paysession.command.erasure.JdbcSessionKeys;
import io.paysession.command.erasure.PersonalDataSerializer;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.partner.PartnerRegisteredEvent;
import io.paysession.api.partner.PartnerSettings;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewFold;
import io.paysession.api.settlement.SettlementRules;
import io.paysession.command.process.JdbcRailCallJournal;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.SecurityCodeEraser;
import io.paysession.command.vault.VaultKeyRing;
import io.paysession.gateway.eventstore.jdbc.EventTable;
import io.paysession.gateway.eventstore.jdbc.UniqueViolations;
import io.paysession.gateway.security.Pem;
import io.paysession.query.partner.PartnerDirectoryProjection;
import io.paysession.query.recurrent.RecurrentTokenProjection;
import io.paysession.query.session.JdbcSessionViewRepository;
import io.paysession.query.session.SessionViewProjection;
import io.paysession.query.session.SessionViewRepository;
import io.paysession.query.settlement.SettlementProjection;
import io.paysession.query.settlement.SettlementStore;
import io.paysession.webhook.notification.DeliveredNotifications;
import io.paysession.webhook.notification.NotificationDerivation;
import io.paysession.webhook.notification.NotificationOutbox;
import io.paysession.webhook.notification.WebhookNotificationProjection;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.EventSchema;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.serialization.Serializer;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.SimpleTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Fills an empty store with finished sessions (docs/benchmark.md, "Preload"): their events through Axon's own JDBC
 * storage engine with the service's schema and serializer, and every table the service keeps for them written by
 * the modules' own code, fed as the service feeds it: the subscribing projections ({@link SessionViewProjection},
 * {@link PartnerDirectoryProjection}, {@link RecurrentTokenProjection}, {@link SecurityCodeEraser}) through Axon's
 * annotation adapter, the settlement entries with {@link SettlementRules} into the live {@link SettlementStore}, the
 * webhook outbox with {@link NotificationDerivation} (rows delivered), the card vault with {@link CardVault}, the
 * rail journal with {@link JdbcRailCallJournal}. Rows are sent in JDBC batches, a chunk of sessions per transaction.
 * The tracking processors' tokens are left at the head of the store, so that no process acts on a preloaded event
 * (no rail call, no webhook), and the ids' sequences after the last id used.
 */
public final class Preload {

    /** The tracking processors of the service and their segments (application.yml, WebhookConfiguration). */
    static final Map<String, Integer> TRACKING_PROCESSORS = new LinkedHashMap<>();

    static {
        TRACKING_PROCESSORS.put("payment-process", 8);
        TRACKING_PROCESSORS.put(SettlementProjection.PROCESSING_GROUP, 1);
    }

    static final int CHUNK = 1000;

    /** When the security code sweep (grace 15 minutes, every minute) erases a code no event erased. */
    static final Duration SECURITY_CODE_SWEEP = Duration.ofMinutes(16);

    /** Called after each chunk. */
    public interface Progress {
        void report(long sessions, long events, Duration elapsed);
    }

    /** What was written; {@code partnerKeys}: each preload partner's private key (PEM), to sign as that partner. */
    public record Result(long sessions, long events, Map<SessionMix.Kind, Long> kinds, Duration took,
                         Map<String, String> partnerKeys) {
    }

    private final DataSource dataSource;
    private final Serializer serializer;
    private final VaultKeyRing keys;
    private final JdbcEventStorageEngine engine;
    private final BatchingJdbcTemplate jdbc;
    private final JdbcTemplate plain;
    private final EventTable eventTable;
    private final TransactionTemplate transactions;
    private final SettableClock clock = new SettableClock();
    private final CardVault vault;
    private final JdbcRailCallJournal railCalls;
    private final SettlementStore settlement;
    private final List<AnnotationEventHandlerAdapter> subscribing = new ArrayList<>();
    private final Map<String, SessionView> views = new HashMap<>();
    private final TokenSchema tokenSchema;

    public Preload(DataSource dataSource, Serializer serializer, EventSchema eventSchema, TokenSchema tokenSchema,
                   VaultKeyRing keys) {
        this.dataSource = dataSource;
        this.serializer = serializer;
        this.keys = keys;
        this.tokenSchema = tokenSchema;
        // personal data encrypted as the service stores it (docs/erasure.md)
        Serializer eventSerializer = new PersonalDataSerializer(serializer, PaymentJson.newObjectMapper(),
                new JdbcSessionKeys(new JdbcTemplate(dataSource), keys, clock, Duration.ofSeconds(5)));
        this.engine = JdbcEventStorageEngine.builder()
                .connectionProvider(new SpringDataSourceConnectionProvider(dataSource))
                .transactionManager(NoTransactionManager.INSTANCE)
                .eventSerializer(eventSerializer)
                .snapshotSerializer(serializer)
                .schema(eventSchema)
                .persistenceExceptionResolver(new UniqueViolations())
                .build();
        this.jdbc = new BatchingJdbcTemplate(dataSource);
        this.plain = new JdbcTemplate(dataSource);
        this.eventTable = new EventTable(plain);
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.vault = new CardVault(jdbc, keys, clock);
        this.railCalls = new JdbcRailCallJournal(jdbc, new InTheChunksTransaction(), clock);
        this.settlement = new SettlementStore(jdbc, "settlement");
        subscribing.add(new AnnotationEventHandlerAdapter(new SessionViewProjection(new ViewsOfTheChunk())));
        subscribing.add(new AnnotationEventHandlerAdapter(new PartnerDirectoryProjection(jdbc)));
        subscribing.add(new AnnotationEventHandlerAdapter(new RecurrentTokenProjection(jdbc)));
        subscribing.add(new AnnotationEventHandlerAdapter(new SecurityCodeEraser(vault)));
    }

    /**
     * Writes {@code sessions} finished sessions for {@code partners} new partners ({@code prefix-1} ...), the last
     * of them ending {@code end}, spread over {@code span}. The store must hold no event yet.
     */
    public Result run(long sessions, String prefix, int partners, Instant end, Duration span, long seed,
                      Progress progress) {
        if (!eventTable.isEmpty()) {
            throw new IllegalStateException("the store holds events already: a preload fills an empty store, "
                    + "before the service's first start");
        }
        long started = System.nanoTime();
        List<SessionMix.Partner> preloadPartners = SessionMix.partners(prefix, partners);
        Instant first = end.minus(span);
        SessionMix.Ids ids = new SessionMix.Ids(nextValue("session_id_seq"), nextValue("payment_id_seq"),
                nextValue("payout_id_seq"), nextValue("refund_id_seq"));
        SessionMix mix = new SessionMix(preloadPartners, vault, seed, ids);
        long[] events = {0};
        long[] highest = {-1};
        Map<String, String> partnerKeys = new LinkedHashMap<>();
        transactions.executeWithoutResult(status -> {
            List<DomainEventMessage<?>> registered = new ArrayList<>();
            for (SessionMix.Partner partner : preloadPartners) {
                KeyPair keys = newKeyPair();
                partnerKeys.put(partner.project(), Pem.write(keys.getPrivate()));
                registered.add(partnerRegistered(partner, Pem.writePublic(keys), first.minus(Duration.ofDays(1))));
            }
            highest[0] = append(registered);
            events[0] += registered.size();
            jdbc.flush();
        });
        Map<SessionMix.Kind, Long> kinds = new EnumMap<>(SessionMix.Kind.class);
        long step = sessions <= 1 ? 0 : span.toNanos() / (sessions - 1);
        for (long done = 0; done < sessions; ) {
            long chunkStart = done;
            long chunkEnd = Math.min(sessions, done + CHUNK);
            List<SessionMix.Planned> planned = new ArrayList<>();
            for (long index = chunkStart; index < chunkEnd; index++) {
                SessionMix.Planned session = mix.next(index, first.plusNanos(step * index));
                planned.add(session);
                kinds.merge(session.kind(), 1L, Long::sum);
            }
            transactions.executeWithoutResult(status -> {
                events[0] += write(planned, highest);
                jdbc.flush();
            });
            done = chunkEnd;
            progress.report(done, events[0], Duration.ofNanos(System.nanoTime() - started));
        }
        transactions.executeWithoutResult(status -> finish(ids, highest[0]));
        return new Result(sessions, events[0], kinds, Duration.ofNanos(System.nanoTime() - started), partnerKeys);
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private DomainEventMessage<?> partnerRegistered(SessionMix.Partner partner, String pem, Instant at) {
        PartnerId id = PartnerId.of(partner.project());
        PartnerSettings settings = new PartnerSettings(pem, "http://127.0.0.1:9/preload/" + partner.project(),
                partner.terms().captureMode(), partner.terms().fees(), false);
        String command = UUID.randomUUID().toString();
        return new GenericDomainEventMessage<>("Partner", id.toString(), 0,
                new PartnerRegisteredEvent(id, settings, at), Map.of("traceId", command, "correlationId", command),
                UUID.randomUUID().toString(), at.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    }

    /** Appends the partners' registrations and hands each to the service's handlers; the highest global index. */
    private long append(List<DomainEventMessage<?>> messages) {
        Map<String, Long> positions = appended(messages);
        long highest = -1;
        // only the partners' events are handed to it here: it needs neither the store nor positions
        WebhookNotificationProjection endpoints = new WebhookNotificationProjection(null,
                new NotificationOutbox(jdbc, event -> { }), event -> OptionalLong.empty());
        for (DomainEventMessage<?> message : messages) {
            long position = positions.get(message.getIdentifier());
            highest = Math.max(highest, position);
            clock.set(message.getTimestamp());
            handle(message);
            if (message.getPayload() instanceof PartnerRegisteredEvent registered) {
                endpoints.on(registered);
            }
        }
        return highest;
    }

    private long write(List<SessionMix.Planned> planned, long[] highest) {
        views.clear();
        for (SessionMix.Planned session : planned) {
            for (SessionMix.Card card : session.cards()) {
                clock.set(card.storedAt());
                vault.storeForSession(card.sealed(), session.sessionId().value());
            }
        }
        // the cards' rows go first: the security code eraser updates them
        jdbc.flush();
        List<DomainEventMessage<?>> messages = new ArrayList<>();
        Map<String, Long> sequences = new HashMap<>();
        for (SessionMix.Planned session : planned) {
            for (SessionMix.Step step : session.steps()) {
                long sequence = sequences.merge(step.aggregateId(), 1L, Long::sum) - 1;
                if (step.aggregateType().equals(SessionMix.RECURRENT_TOKEN) && step.payload()
                        instanceof io.paysession.api.recurrent.RecurrentTokenUsedEvent) {
                    sequence = 1; // issued (0) in the session that granted it, used once here
                }
                messages.add(new GenericDomainEventMessage<>(step.aggregateType(), step.aggregateId(), sequence,
                        step.payload(), step.metaData(), UUID.randomUUID().toString(),
                        step.at().truncatedTo(java.time.temporal.ChronoUnit.MILLIS)));
            }
        }
        Map<String, Long> positions = appended(messages);
        Map<String, SessionView> folded = new HashMap<>();
        for (DomainEventMessage<?> message : messages) {
            long position = positions.get(message.getIdentifier());
            highest[0] = Math.max(highest[0], position);
            clock.set(message.getTimestamp());
            handle(message);
            if (message.getPayload() instanceof SessionEvent event) {
                String session = event.sessionId().value();
                SessionView before = folded.get(session);
                SessionView after = SessionViewFold.apply(before, event, message.getSequenceNumber());
                folded.put(session, after);
                settlement.save(SettlementRules.derive(event, before, after, message.getIdentifier(), position));
                NotificationDerivation.derive(before, event, message.getIdentifier(), message.getSequenceNumber(),
                        position).ifPresent(notification -> {
                            Instant stored = message.getTimestamp().plusMillis(40 + position % 60);
                            DeliveredNotifications.add(jdbc, notification, stored, stored.plusMillis(5),
                                    10 + position % 40);
                        });
            }
        }
        for (SessionMix.Planned session : planned) {
            if (session.kind() == SessionMix.Kind.CANCELLED_BEFORE_CONFIRMATION) {
                // no event of the session erases its card's security code: the sweep does, once it is old enough
                clock.set(session.cards().get(0).storedAt().plus(SECURITY_CODE_SWEEP));
                vault.eraseSecurityCodesOfSession(session.sessionId().value());
            }
            for (SessionMix.RailCall call : session.railCalls()) {
                clock.set(call.at());
                railCalls.firstCall(call.kind(), call.operationId(), session.sessionId());
            }
        }
        JdbcSessionViewRepository live = new JdbcSessionViewRepository(jdbc);
        views.values().forEach(live::save);
        return messages.size();
    }

    /** Appends {@code messages} with Axon's storage engine; the global index each was given, by event id. */
    private Map<String, Long> appended(List<DomainEventMessage<?>> messages) {
        long before = eventTable.maxGlobalIndex();
        engine.appendEvents(messages);
        return eventTable.positionsAfter(before);
    }

    private void handle(DomainEventMessage<?> message) {
        for (AnnotationEventHandlerAdapter handler : subscribing) {
            try {
                if (handler.canHandle(message)) {
                    handler.handle(message);
                }
            } catch (Exception e) {
                throw new IllegalStateException("a projection refused preloaded event " + message.getPayloadType()
                        .getSimpleName() + " of " + message.getAggregateIdentifier() + ": " + e.getMessage(), e);
            }
        }
    }

    /** The sequences after the last ids used, the settlement position and the processors' tokens at the head. */
    private void finish(SessionMix.Ids ids, long highest) {
        setValue("session_id_seq", ids.session - 1);
        setValue("payment_id_seq", ids.payment - 1);
        setValue("payout_id_seq", ids.payout - 1);
        setValue("refund_id_seq", ids.refund - 1);
        settlement.advanceTo(highest, highest, Collections.unmodifiableSortedSet(new TreeSet<>()),
                SettlementProjection.DEFAULT_GAP_TIMEOUT);
        jdbc.flush();
        JdbcTokenStore tokens = JdbcTokenStore.builder()
                .connectionProvider(new SpringDataSourceConnectionProvider(dataSource))
                .schema(tokenSchema)
                .serializer(serializer)
                .build();
        TrackingToken head = engine.createHeadToken();
        TRACKING_PROCESSORS.forEach((processor, segments) -> tokens.initializeTokenSegments(processor, segments, head));
    }

    private long nextValue(String sequence) {
        Long value = plain.queryForObject("select nextval('" + sequence + "')", Long.class);
        return value == null ? 1 : value;
    }

    /** Leaves {@code sequence} so that its next value follows {@code last}; a sequence nothing used stays as it is. */
    private void setValue(String sequence, long last) {
        if (last >= 1) {
            plain.queryForObject("select setval('" + sequence + "', ?)", Long.class, last);
        }
    }

    /** The session views of the chunk being written: each session's view saved once, at the chunk's end. */
    private final class ViewsOfTheChunk implements SessionViewRepository {
        @Override
        public Optional<SessionView> find(String sessionId) {
            return Optional.ofNullable(views.get(sessionId));
        }

        @Override
        public void save(SessionView view) {
            views.put(view.id(), view);
        }
    }

    /**
     * The rail journal commits each row in a transaction of its own, before the rail is called; a preloaded call
     * was made long ago, so its row joins the chunk's transaction.
     */
    private static final class InTheChunksTransaction implements PlatformTransactionManager {
        @Override
        public TransactionStatus getTransaction(TransactionDefinition definition) {
            return new SimpleTransactionStatus(false);
        }

        @Override
        public void commit(TransactionStatus status) {
        }

        @Override
        public void rollback(TransactionStatus status) {
        }
    }
}
