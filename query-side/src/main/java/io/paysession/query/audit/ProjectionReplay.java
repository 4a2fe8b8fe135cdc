package io.paysession.query.audit;

import io.paysession.api.projection.ProjectionRebuild;
import io.paysession.api.projection.ReplayedEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewFold;

import org.springframework.transaction.support.TransactionOperations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Rebuilds projections from the event store into fresh tables, with the projections' own code, while the
 * service keeps serving; then compares them with the live tables. Each module rebuilds its own projections
 * ({@link ProjectionRebuild}); the replay reads the store once up to the position it started at, session by
 * session (so it holds one session at a time, whatever the store's size), folds each session and hands every
 * event to each rebuild asked for, then tells each the page is done. Live rows that moved on since are not
 * differences, and a live projection that lags is waited for.
 */
public class ProjectionReplay {

    public record Result(String projection, long position, long rows, long movedOn, List<String> differences) {
        public boolean identical() {
            return differences.isEmpty();
        }
    }

    /** Called about once a second while events are replayed. */
    public interface Progress {
        void report(long done, long total, Duration elapsed);
    }

    private final StoredEvents events;
    private final List<ProjectionRebuild> rebuilds;
    private final TransactionOperations transactions;

    /**
     * The rebuilds run, and answer, in the order of their names. Each page of events (at most 1,000) is applied
     * in one transaction of {@code transactions}: the fresh tables are nobody's but the replay's, and one commit
     * per page instead of one per statement is what makes a replay of a large store take minutes, not hours.
     */
    public ProjectionReplay(StoredEvents events, List<ProjectionRebuild> rebuilds, TransactionOperations transactions) {
        this.events = events;
        this.rebuilds = rebuilds.stream().sorted(Comparator.comparing(ProjectionRebuild::name)).toList();
        this.transactions = transactions;
    }

    /** The rebuilds {@code name} asks for: {@code all} (or none given) or one projection's name. */
    public List<ProjectionRebuild> select(String name) {
        if (name == null || name.equals("all")) {
            return rebuilds;
        }
        for (ProjectionRebuild rebuild : rebuilds) {
            if (rebuild.name().equals(name)) {
                return List.of(rebuild);
            }
        }
        List<String> names = new ArrayList<>(List.of("all"));
        rebuilds.forEach(rebuild -> names.add(rebuild.name()));
        throw new IllegalArgumentException("projection must be " + String.join(", ", names.subList(0, names.size() - 1))
                + " or " + names.get(names.size() - 1));
    }

    public List<Result> run(List<ProjectionRebuild> selected, Progress progress) {
        long position = events.maxGlobalIndex();
        long total = events.count(position);
        for (ProjectionRebuild rebuild : selected) {
            rebuild.dropFreshTables();
            rebuild.createFreshTables();
        }
        // one session at a time: the events come session by session, so only the session being read is held
        String[] session = {null};
        SessionView[] view = {null};
        long started = System.nanoTime();
        long[] done = {0, started};
        events.forEachPageByAggregate(position, page -> transactions.executeWithoutResult(transaction -> {
            for (StoredEvents.StoredEvent stored : page) {
                done[0]++;
                if (System.nanoTime() - done[1] > 1_000_000_000L) {
                    done[1] = System.nanoTime();
                    progress.report(done[0], total, Duration.ofNanos(done[1] - started));
                }
                if (!stored.aggregateId().equals(session[0])) {
                    session[0] = stored.aggregateId();
                    view[0] = null;
                }
                if (!(events.payload(stored) instanceof SessionEvent event)) {
                    continue;
                }
                SessionView before = view[0];
                SessionView after = SessionViewFold.apply(before, event, stored.sequence());
                view[0] = after;
                ReplayedEvent replayed = new ReplayedEvent(event, before, after, stored.eventId(), stored.sequence(),
                        stored.globalIndex());
                selected.forEach(rebuild -> rebuild.apply(replayed));
            }
            selected.forEach(ProjectionRebuild::endOfPage);
        }));
        progress.report(done[0], total, Duration.ofNanos(System.nanoTime() - started));
        List<Result> results = new ArrayList<>();
        for (ProjectionRebuild rebuild : selected) {
            ProjectionRebuild.Comparison comparison = rebuild.compareWithLive(position);
            results.add(new Result(rebuild.name(), position, comparison.rows(), comparison.movedOn(),
                    comparison.differences()));
        }
        return results;
    }
}
