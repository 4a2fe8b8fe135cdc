package io.paysession.gateway.erasure;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.paysession.api.erasure.RequestErasureCommand;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.session.ErasePersonalDataCommand;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.RefundState;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.view.PaymentView;
import io.paysession.api.session.view.SessionView;
import io.paysession.command.erasure.PersonalDataRecords;
import io.paysession.command.erasure.SessionKeys;
import io.paysession.gateway.http.HttpException;
import io.paysession.query.session.SessionViewRepository;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Array;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code POST /admin/v1/erasures} (docs/erasure.md): erases the data keys of every session of one customer of a
 * partner, so that their personal data reads {@code "[erased]"} everywhere from then on, and records who asked and
 * when ({@code ErasureRequestedEvent}). Refused while one of the sessions is still in flight: the rails may still need
 * the data. Once the nodes' key caches have expired ({@code payments.erasure.key-cache-time}), the task
 * {@value #TASK} records {@code PersonalDataErasedEvent} in each session, which derives its view, webhook bodies and
 * recurrent tokens again from the erased events, and re-renders the answers kept with idempotency keys.
 */
@Component
public class Erasures {

    static final String TASK = "personal-data-erasure";
    private static final Logger log = LoggerFactory.getLogger(Erasures.class);

    /** An erasure as the admin API shows it. */
    public record Erasure(String erasureId, String project, List<String> sessionIds, String requestedBy,
                          Instant requestedAt, Instant completedAt) {
    }

    private final SessionKeys keys;
    private final SessionViewRepository views;
    private final CommandGateway commands;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final SchedulerClient scheduler;
    private final Clock clock;
    private final Duration cacheTime;
    private final List<ErasureListener> listeners;
    private final StoredEventsEncryption encryption;
    private final List<PersonalDataRecords> records;

    /** What else must forget an erased session once its events read erased (answers kept, the sandbox inbox). */
    public interface ErasureListener {
        void erased(SessionId session);
    }

    public Erasures(SessionKeys keys, SessionViewRepository views, CommandGateway commands, JdbcTemplate jdbc,
                    TransactionTemplate transactions, SchedulerClient scheduler, Clock clock,
                    @Value(ErasureConfiguration.KEY_CACHE_TIME) Duration cacheTime, List<ErasureListener> listeners,
                    StoredEventsEncryption encryption, List<PersonalDataRecords> records) {
        this.encryption = encryption;
        this.records = records;
        this.keys = keys;
        this.views = views;
        this.commands = commands;
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.scheduler = scheduler;
        this.clock = clock;
        this.cacheTime = cacheTime;
        this.listeners = listeners;
    }

    @Bean
    static OneTimeTask<String> personalDataErasureTask(ObjectProvider<Erasures> erasures) {
        return Tasks.oneTime(TASK, String.class)
                .execute((instance, context) -> erasures.getObject().complete(instance.getData()));
    }

    /**
     * Erases the keys of every session of customer {@code reference} of {@code project}; 409 naming the sessions still
     * in flight, and nothing erased, when there are some; 409 while events stored before encryption are still being
     * encrypted ({@link StoredEventsEncryption}).
     */
    public Erasure request(String project, String reference, String requestedBy) {
        StoredEventsEncryption.Progress encrypted = encryption.progress();
        if (!encrypted.done()) {
            // the index does not know the sessions of events not yet encrypted: the erasure would miss them
            throw new HttpException(409, ErrorCode.INVALID_REQUEST, "Events stored before personal data was encrypted "
                    + "are still being encrypted (up to position " + encrypted.lastGlobalIndex() + " of "
                    + encrypted.upTo() + "); retry when GET /admin/v1/erasures/stored-events says done");
        }
        List<SessionId> sessions = keys.sessionsOf(project, reference);
        List<String> inFlight = sessions.stream().map(SessionId::value)
                .filter(id -> views.find(id).map(view -> !finished(view)).orElse(true)).toList();
        if (!inFlight.isEmpty()) {
            throw new HttpException(409, ErrorCode.INVALID_REQUEST, "The customer has sessions still in flight, whose "
                    + "rails may need their data; retry when they have ended: " + String.join(", ", inFlight));
        }
        String erasureId = "er_" + UUID.randomUUID().toString().replace("-", "");
        Instant now = clock.instant();
        List<String> ids = sessions.stream().map(SessionId::value).toList();
        transactions.executeWithoutResult(status -> {
            keys.erase(sessions);
            records.forEach(place -> place.erase(ids));
            jdbc.update("""
                    insert into erasure_request (erasure_id, project, session_ids, requested_by, requested_at)
                    values (?, ?, ?, ?, ?)""", statement -> {
                statement.setString(1, erasureId);
                statement.setString(2, project);
                statement.setArray(3, statement.getConnection().createArrayOf("varchar", ids.toArray()));
                statement.setString(4, requestedBy);
                statement.setTimestamp(5, Timestamp.from(now));
            });
            commands.sendAndWait(new RequestErasureCommand(erasureId, project, ids.size(), requestedBy));
            scheduler.schedule(new TaskInstance<>(TASK, erasureId, erasureId), now.plus(cacheTime));
        });
        log.info("Erasure {} of a customer of {}: the keys of {} sessions erased", erasureId, project, ids.size());
        return find(erasureId).orElseThrow();
    }

    public Optional<Erasure> find(String erasureId) {
        return jdbc.query("select * from erasure_request where erasure_id = ?", (row, index) -> {
            Array array = row.getArray("session_ids");
            List<String> sessions = List.of((String[]) array.getArray());
            Timestamp completed = row.getTimestamp("completed_at");
            return new Erasure(row.getString("erasure_id"), row.getString("project"), sessions,
                    row.getString("requested_by"), row.getTimestamp("requested_at").toInstant(),
                    completed == null ? null : completed.toInstant());
        }, erasureId).stream().findFirst();
    }

    /**
     * The erasure's second step, after the key caches expired: keys made for the sessions meanwhile are erased too (a
     * refund copies the order the session held), then each session records {@code PersonalDataErasedEvent}, which
     * erases the aggregate's own copy and makes the projections derive the session again; then the listeners.
     */
    void complete(String erasureId) {
        Optional<Erasure> erasure = find(erasureId);
        if (erasure.isEmpty() || erasure.get().completedAt() != null) {
            return;
        }
        List<SessionId> sessions = erasure.get().sessionIds().stream().map(SessionId::of).toList();
        transactions.executeWithoutResult(status -> keys.erase(sessions));
        for (SessionId session : sessions) {
            commands.sendAndWait(new ErasePersonalDataCommand(session, erasureId));
            listeners.forEach(listener -> listener.erased(session));
        }
        jdbc.update("update erasure_request set completed_at = ? where erasure_id = ?", Timestamp.from(clock.instant()),
                erasureId);
        log.info("Erasure {}: {} sessions derived again from their erased events", erasureId, sessions.size());
    }

    /** Final: nothing will move money or call a rail with the session's data again (a refund may still come). */
    static boolean finished(SessionView view) {
        if (view.status() != SessionStatus.ACCEPTED && view.status() != SessionStatus.CANCELLED) {
            return false;
        }
        for (PaymentView payment : view.payments()) {
            if (!payment.state().isFinal() || payment.refunds().stream().anyMatch(refund ->
                    refund.state() == RefundState.IN_PROGRESS || refund.state() == RefundState.ERROR)) {
                return false;
            }
        }
        return view.payouts().stream().allMatch(payout -> payout.state().isFinal()
                && payout.state() != OperationState.ERROR);
    }
}
