package io.paysession.gateway.erasure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.paysession.api.erasure.PersonalData;
import io.paysession.api.recurrent.RecurrentTokenIssuedEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.wire.PaymentJson;
import io.paysession.command.erasure.SessionKeys;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.axonframework.serialization.SimpleSerializedType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.io.IOException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The one-off encryption of events stored before personal data was encrypted (docs/erasure.md): every event up to the
 * store's last position when this version first started ({@code pii_stored_events_encryption.up_to}) that holds
 * personal data in clear is written again as the event serializer writes it now, under its session's key, and its
 * customer references are indexed, so that an erasure reaches it. A task on one node at a time (db-scheduler), in
 * batches, each one transaction; the erasure is refused until it has finished.
 * <p>
 * It changes stored bytes once: an audit export of a period before it, made before it ran, has other hashes than one
 * made after (docs/audit.md).
 */
@Component
public class StoredEventsEncryption {

    static final String TASK = "stored-events-encryption";
    private static final Logger log = LoggerFactory.getLogger(StoredEventsEncryption.class);

    /** How far the encryption has come. */
    public record Progress(long upTo, long lastGlobalIndex, long eventsEncrypted, boolean done) {
    }

    private final JdbcTemplate jdbc;
    private final StoredPayloads payloads;
    private final TransactionTemplate transactions;
    private final Serializer plain;
    private final Serializer events;
    private final SessionKeys keys;
    private final Clock clock;
    private final int batchSize;
    private final ObjectMapper json = PaymentJson.newObjectMapper();

    public StoredEventsEncryption(JdbcTemplate jdbc, StoredPayloads payloads, TransactionTemplate transactions,
                                  Serializer serializer,
                                  @Qualifier("eventSerializer") Serializer eventSerializer, SessionKeys keys,
                                  Clock clock,
                                  @Value("${payments.erasure.stored-events.batch-size:500}") int batchSize) {
        this.jdbc = jdbc;
        this.payloads = payloads;
        this.transactions = transactions;
        this.plain = serializer;
        this.events = eventSerializer;
        this.keys = keys;
        this.clock = clock;
        this.batchSize = batchSize;
    }

    @Bean
    static RecurringTask<Void> storedEventsEncryptionTask(
            ObjectProvider<StoredEventsEncryption> encryption,
            @Value("${payments.erasure.stored-events.interval:10s}") Duration interval) {
        return Tasks.recurring(TASK, FixedDelay.of(interval)).execute((instance, context) -> encryption.getObject().run());
    }

    public Progress progress() {
        return read("select * from pii_stored_events_encryption where id = 1");
    }

    private Progress read(String select) {
        return jdbc.queryForObject(select, (row, index) -> {
            long upTo = row.getLong("up_to");
            long last = row.getLong("last_global_index");
            return new Progress(upTo, last, row.getLong("events_encrypted"),
                    row.getTimestamp("finished_at") != null || last >= upTo);
        });
    }

    /** Whether every event stored before encryption has been encrypted (one indexed read). */
    public boolean done() {
        return progress().done();
    }

    /** Batches until done; how many events were encrypted. */
    public long run() {
        long total = 0;
        while (!done()) {
            total += transactions.execute(status -> batch());
        }
        return total;
    }

    private long batch() {
        Progress progress = read("select * from pii_stored_events_encryption where id = 1 for update");
        if (progress.done()) {
            return 0;
        }
        List<StoredPayloads.Stored> rows = payloads.after(progress.lastGlobalIndex(), progress.upTo(), batchSize);
        long encrypted = 0;
        long last = progress.lastGlobalIndex();
        for (StoredPayloads.Stored row : rows) {
            last = row.position();
            Optional<byte[]> rewritten = encrypted(row.payload(), row.type(), row.revision());
            if (rewritten.isPresent()) {
                payloads.rewrite(last, rewritten.get());
                encrypted++;
            }
        }
        boolean finishedNow = rows.size() < batchSize || last >= progress.upTo();
        jdbc.update("""
                update pii_stored_events_encryption set last_global_index = ?, events_encrypted = events_encrypted + ?,
                       finished_at = ? where id = 1""", finishedNow ? progress.upTo() : last, encrypted,
                finishedNow ? Timestamp.from(clock.instant()) : null);
        if (finishedNow) {
            log.info("Personal data of the events stored before its encryption is encrypted ({} events rewritten)",
                    progress.eventsEncrypted() + encrypted);
        }
        return encrypted;
    }

    /** The payload written again encrypted, when it holds personal data in clear. */
    private Optional<byte[]> encrypted(byte[] payload, String type, String revision) {
        Class<?> eventType;
        try {
            eventType = plain.classForType(new SimpleSerializedType(type, revision));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        if (PersonalData.personalPaths(eventType).isEmpty() || PersonalData.holdsEncrypted(payload)
                || !holdsPersonalData(payload, eventType)) {
            return Optional.empty();
        }
        Object event = plain.deserialize(new SimpleSerializedObject<>(payload, byte[].class,
                new SimpleSerializedType(type, revision)));
        SessionId session = event instanceof SessionEvent sessionEvent ? sessionEvent.sessionId()
                : event instanceof RecurrentTokenIssuedEvent issued ? issued.sessionId() : null;
        if (session == null) {
            return Optional.empty();
        }
        // the session's key names its partner, as the serializer's key for a new session would
        keys.writingKey(session, projectOf(session));
        SerializedObject<byte[]> written = events.serialize(event, byte[].class);
        return Optional.of(written.getData());
    }

    private boolean holdsPersonalData(byte[] payload, Class<?> type) {
        try {
            JsonNode tree = json.readTree(payload);
            boolean[] found = {false};
            PersonalData.rewriteLeaves(tree, type, leaf -> {
                found[0] = true;
                return leaf;
            });
            return found[0];
        } catch (IOException e) {
            return false;
        }
    }

    private String projectOf(SessionId session) {
        Optional<byte[]> first = payloads.firstPayloadOf(session.value());
        if (first.isEmpty()) {
            return null;
        }
        try {
            JsonNode created = json.readTree(first.get());
            return created.path("project").isTextual() ? created.path("project").asText() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
