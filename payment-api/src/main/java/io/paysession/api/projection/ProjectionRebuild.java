package io.paysession.api.projection;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * One projection rebuilt from the event store by the module that owns it, into fresh tables beside its live
 * ones (the live tables are never written). The audit replay drops and creates the fresh tables, feeds every
 * stored session event up to a position in the store's order, then asks for the comparison; the fresh tables
 * stay until the next replay, for an operator to look into.
 */
public interface ProjectionRebuild {

    /** The projection's name as an operator types it ({@code session-views}, {@code settlement}, {@code webhooks}). */
    String name();

    /** Drops the fresh tables a previous rebuild left, if any. */
    void dropFreshTables();

    /** Creates the fresh tables, empty, with the live tables' definition. */
    void createFreshTables();

    /**
     * Applies one stored session event to the fresh tables, with the projection's own code. Events come session by
     * session, each session's in its order; a session's events may be split over two pages.
     */
    void apply(ReplayedEvent event);

    /**
     * Called after each page of events (at most 1,000), in the page's transaction: a rebuild that keeps what it
     * derives in memory writes it here, in batches, so that memory stays the size of a page.
     */
    default void endOfPage() {
    }

    /**
     * Compares the fresh tables with the live ones up to {@code position}, the last position the rebuild applied;
     * a live projection that lags may be waited for.
     */
    Comparison compareWithLive(long position);

    /**
     * What a comparison found: the rows rebuilt, the live rows that moved on past the rebuild since it started
     * (not differences), and the differences (at most {@link RebuildDifferences#MAX}).
     */
    record Comparison(long rows, long movedOn, java.util.List<String> differences) {
    }

    /**
     * Asks {@code done} again every 200 ms until it answers true or {@code patience} has passed (or the thread is
     * interrupted); the answer of the last ask.
     */
    static boolean waitFor(Duration patience, BooleanSupplier done) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            if (done.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
