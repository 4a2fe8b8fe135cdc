package io.paysession.webhook.notification;

import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.api.projection.RebuildDifferences;
import io.paysession.api.projection.ReplayedEvent;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The webhook outbox rebuilt with {@link NotificationDerivation} into {@code webhook_notification_rebuild}, a
 * table made like the outbox of this module's migrations and written with the outbox's own insert. Compared
 * are each notification's id, session, type, body (the exact bytes signed), session sequence and event
 * position (the replay's, for a row stored without one); delivery state and attempts are history, not a
 * projection of events. The live outbox is written in
 * each event's own transaction; a difference is still looked at again for up to 30 s before it counts (an outbox
 * upgraded from the tracking processor of earlier versions catches up at start).
 */
public class WebhookOutboxRebuild implements ProjectionRebuild {

    static final String TABLE = "webhook_notification_rebuild";
    private static final String COLUMNS = "id, session_id, type, body, session_sequence, event_global_index";
    private static final Duration CATCH_UP = Duration.ofSeconds(30);

    private final JdbcTemplate jdbc;
    private final String insert = NotificationOutbox.insertInto(TABLE);
    private final Clock clock = Clock.systemUTC();
    private final List<NewNotification> page = new ArrayList<>();
    private final Duration catchUp;

    public WebhookOutboxRebuild(JdbcTemplate jdbc) {
        this(jdbc, CATCH_UP);
    }

    /** {@code catchUp}: how long a difference is looked at again before it counts. */
    WebhookOutboxRebuild(JdbcTemplate jdbc, Duration catchUp) {
        this.jdbc = jdbc;
        this.catchUp = catchUp;
    }

    @Override
    public String name() {
        return "webhooks";
    }

    @Override
    public void dropFreshTables() {
        jdbc.execute("drop table if exists " + TABLE);
    }

    @Override
    public void createFreshTables() {
        page.clear();
        jdbc.execute("create table " + TABLE + " (like webhook_notification including all)");
    }

    @Override
    public void apply(ReplayedEvent replayed) {
        NotificationDerivation.derive(replayed.before(), replayed.event(), replayed.eventId(), replayed.sequence(),
                replayed.globalIndex()).ifPresent(page::add);
    }

    /** The page's notifications, with the outbox's own insert, in one batch. */
    @Override
    public void endOfPage() {
        NotificationOutbox.insertAll(jdbc, insert, page, clock);
        page.clear();
    }

    @Override
    public Comparison compareWithLive(long position) {
        RebuildDifferences differences = new RebuildDifferences();
        // a row written without its event's position (a subscribing processor on Axon Server, which gives positions
        // after the handlers ran) is compared with the position the replay read for the same notification
        String livePosition = "coalesce(l.event_global_index, (select r.event_global_index from " + TABLE
                + " r where r.id = l.id))";
        String liveRows = "select id, session_id, type, body, session_sequence, " + livePosition
                + " as event_global_index from webhook_notification l where " + livePosition + " <= " + position;
        String rebuiltRows = "select " + COLUMNS + " from " + TABLE;
        ProjectionRebuild.waitFor(catchUp, () -> {
            differences.clear();
            differences.compareRows("webhook", jdbc.queryForList("(" + liveRows + ") except (" + rebuiltRows + ")"),
                    jdbc.queryForList("(" + rebuiltRows + ") except (" + liveRows + ")"));
            return differences.isEmpty();
        });
        Long rows = jdbc.queryForObject("select count(*) from " + TABLE, Long.class);
        return new Comparison(rows == null ? 0 : rows, 0, differences.list());
    }
}
