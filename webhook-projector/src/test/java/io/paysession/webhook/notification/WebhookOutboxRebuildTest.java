package io.paysession.webhook.notification;

import io.paysession.api.eventstore.axon.TrackingTokenPositions;
import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.api.projection.ReplayedEvent;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewFold;
import io.paysession.webhook.testing.SampleSession;
import io.paysession.webhook.testing.TestDatabase;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.GenericTrackedDomainEventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outbox rebuilt from the stored events into a table made like the outbox, by this module's own derivation
 * and insert, and compared with the outbox the projection wrote: identical when the outbox holds what the events
 * say, and every row that differs named (a body changed, a row missing, a row too many).
 */
class WebhookOutboxRebuildTest {

    private static final TestDatabase DB = TestDatabase.get();

    private final SampleSession session = new SampleSession(7400);
    private final WebhookOutboxRebuild rebuild = new WebhookOutboxRebuild(DB.jdbc(), Duration.ZERO);
    private EmbeddedEventStore eventStore;
    private List<DomainEventMessage<?>> stream;

    @BeforeEach
    void setUp() {
        DB.clear();
        eventStore = EmbeddedEventStore.builder().storageEngine(new InMemoryEventStorageEngine()).build();
        stream = messages(session.created(ApiVersion.V2), session.paymentStarted(), session.readyToConfirm(),
                session.confirmed(), session.succeeded());
        eventStore.publish(stream);
        WebhookNotificationProjection projection = new WebhookNotificationProjection(eventStore,
                new NotificationOutbox(DB.jdbc(), event -> {
                }), new TrackingTokenPositions());
        for (DomainEventMessage<?> message : stream) {
            projection.on((SessionEvent) message.getPayload(), new GenericTrackedDomainEventMessage<>(
                    new GlobalSequenceTrackingToken(position(message)), message));
        }
    }

    @AfterEach
    void tearDown() {
        eventStore.shutDown();
        rebuild.dropFreshTables();
    }

    @Test
    void theRebuiltOutboxIsIdenticalToTheOneTheProjectionWrote() {
        ProjectionRebuild.Comparison comparison = rebuildUpTo(position(stream.get(4)));

        assertThat(comparison.differences()).isEmpty();
        assertThat(comparison.rows()).isEqualTo(2); // ready_to_confirm and payment_finished
        assertThat(DB.jdbc().queryForList("select type from webhook_notification_rebuild order by session_sequence",
                String.class)).containsExactly("ready_to_confirm", "payment_finished");
    }

    @Test
    void rowsStoredWithoutTheirEventsPositionAreComparedAtTheReplaysPosition() {
        // as a subscribing processor on Axon Server stores them: the position comes after the handlers ran
        DB.jdbc().update("update webhook_notification set event_global_index = null");

        ProjectionRebuild.Comparison comparison = rebuildUpTo(position(stream.get(4)));

        assertThat(comparison.differences()).isEmpty();
        assertThat(comparison.rows()).isEqualTo(2);
        DB.jdbc().update("update webhook_notification set body = body || ' ' where type = 'ready_to_confirm'");
        assertThat(rebuildUpTo(position(stream.get(4))).differences()).singleElement().asString()
                .endsWith(": body differ between the live table and the rebuild");
    }

    @Test
    void aLiveRowThatDiffersFromTheEventsIsNamedWithItsColumns() {
        String changed = DB.jdbc().queryForObject("select id from webhook_notification where type = 'payment_finished'",
                String.class);
        DB.jdbc().update("update webhook_notification set body = body || ' ' where id = ?::uuid", changed);

        ProjectionRebuild.Comparison comparison = rebuildUpTo(position(stream.get(4)));

        assertThat(comparison.differences()).containsExactly(
                "webhook " + changed + ": body differ between the live table and the rebuild");
    }

    @Test
    void aMissingLiveRowAndAnExtraOneAreBothNamed() {
        String removed = DB.jdbc().queryForObject("select id from webhook_notification where type = 'ready_to_confirm'",
                String.class);
        DB.jdbc().update("delete from webhook_notification where id = ?::uuid", removed);
        SampleSession other = new SampleSession(7500);
        NotificationOutbox outbox = new NotificationOutbox(DB.jdbc(), event -> {
        });
        SessionView created = SessionViewFold.apply(null, other.created(ApiVersion.V1), 0);
        SessionView started = SessionViewFold.apply(created, other.paymentStarted(), 1);
        NotificationDerivation.derive(started, other.readyToConfirm(), "evt-not-in-the-store", 2, 3L)
                .ifPresent(outbox::add);
        String extra = DB.jdbc().queryForObject("select id from webhook_notification where session_id = 'ps_7500'",
                String.class);

        ProjectionRebuild.Comparison comparison = rebuildUpTo(position(stream.get(4)));

        assertThat(comparison.differences()).containsExactlyInAnyOrder(
                "webhook " + extra + ": in the live table, not in the rebuild",
                "webhook " + removed + ": in the rebuild, not in the live table");
    }

    /** What the replay does: fresh tables, every event with the session before and after it, the page's end, the comparison. */
    private ProjectionRebuild.Comparison rebuildUpTo(long position) {
        rebuild.dropFreshTables();
        rebuild.createFreshTables();
        SessionView before = null;
        for (DomainEventMessage<?> message : stream) {
            SessionEvent event = (SessionEvent) message.getPayload();
            SessionView after = SessionViewFold.apply(before, event, message.getSequenceNumber());
            rebuild.apply(new ReplayedEvent(event, before, after, message.getIdentifier(), message.getSequenceNumber(),
                    position(message)));
            before = after;
        }
        rebuild.endOfPage();
        return rebuild.compareWithLive(position);
    }

    /** The sample's events sit at global positions 10, 11, 12, … of the store. */
    private static long position(DomainEventMessage<?> message) {
        return 10 + message.getSequenceNumber();
    }

    private List<DomainEventMessage<?>> messages(SessionEvent... events) {
        List<DomainEventMessage<?>> messages = new ArrayList<>();
        for (int sequence = 0; sequence < events.length; sequence++) {
            messages.add(new GenericDomainEventMessage<>("Session", session.sessionId().value(), sequence, events[sequence]));
        }
        return messages;
    }
}
