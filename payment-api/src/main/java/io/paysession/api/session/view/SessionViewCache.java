package io.paysession.api.session.view;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.paysession.api.session.SessionEvent;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sessions as their last committed event left them, kept in memory so that the steps that follow an event (the
 * command's answer, the stored view, the webhook, the settlement entry) do not each read and fold the session's stream
 * again.
 * <p>
 * Why a cached view is never wrong: a view at version {@code v} is the fold of the session's events {@code 0..v}
 * ({@link SessionViewFold}), and committed events never change. A view enters the cache only after the unit of work
 * that folded it has committed (a rolled-back command leaves nothing here), and it is used as "the session before
 * event {@code s}" only when its version is exactly {@code s - 1}. So on any node, whatever another node appended
 * meanwhile, the cache answers right or not at all; a miss falls back to the caller's own source (its table, or the
 * event store).
 * <p>
 * Inside a unit of work, the transitions already computed are shared: the subscribing projections that run in a
 * command's transaction, and the command's answer, fold each event once between them. The unit of work's views are
 * kept on its root, so nested units (a subscribing processor's batch) see the command's.
 */
public final class SessionViewCache {

    /** Sessions kept when nothing else is said: far more than are in flight at once at any rate measured. */
    public static final long DEFAULT_MAXIMUM_SIZE = 10_000;

    /** The session before and after one of its events. {@code before} is {@code null} before the first event. */
    public record Transition(SessionView before, SessionView after) {
    }

    /** The view of a session before its event {@code sequence}, from the caller's own source. */
    @FunctionalInterface
    public interface Source {
        SessionView viewBefore(String sessionId, long sequence);
    }

    private static final Map<String, SessionView> NOTHING_YET = Map.of();
    private static final SessionView[] NONE = {};

    /** Versions kept per session: a projection that lags a few events behind the commands still finds its view. */
    static final int VERSIONS_KEPT = 8;

    private final Cache<String, SessionView[]> committed;
    /** By command id: the views the command's unit of work left, for a caller waiting on its answer. */
    private final Map<String, Map<String, SessionView>> answers = new ConcurrentHashMap<>();
    private final String resourceKey = SessionViewCache.class.getName() + "@" + System.identityHashCode(this);

    public SessionViewCache() {
        this(DEFAULT_MAXIMUM_SIZE);
    }

    public SessionViewCache(long maximumSize) {
        this.committed = Caffeine.newBuilder().maximumSize(maximumSize).build();
    }

    /**
     * What {@code event}, number {@code sequence} of its session's stream, does to the session: from the running unit
     * of work when it already folded it, else from the view before it (the unit of work's, the cache's, or
     * {@code source}'s). Outside a unit of work, only {@code source} is asked and nothing is kept.
     */
    public Transition transition(SessionEvent event, long sequence, Source source) {
        return known(event, sequence).orElseGet(() ->
                record(event, sequence, source.viewBefore(event.sessionId().value(), sequence)));
    }

    /**
     * What {@code event} does to the session, when the running unit of work or the cache knows the session just
     * before it; empty otherwise (and always outside a unit of work).
     */
    public Optional<Transition> known(SessionEvent event, long sequence) {
        if (!CurrentUnitOfWork.isStarted()) {
            return Optional.empty();
        }
        String sessionId = event.sessionId().value();
        Folded folded = folded(CurrentUnitOfWork.get().root());
        Transition done = folded.transitions.get(key(sessionId, sequence));
        if (done != null) {
            return Optional.of(done);
        }
        SessionView before = folded.latest.get(sessionId);
        if (before == null || before.version() != sequence - 1) {
            before = committedAt(sessionId, sequence - 1).orElse(null);
        }
        if (before == null && sequence != 0) {
            return Optional.empty();
        }
        return Optional.of(record(event, sequence, before));
    }

    /**
     * Folds {@code event} onto {@code before}, the session just before it as the caller read it, and keeps the result
     * in the running unit of work, if there is one.
     */
    public Transition record(SessionEvent event, long sequence, SessionView before) {
        Transition transition = new Transition(before, SessionViewFold.apply(before, event, sequence));
        if (CurrentUnitOfWork.isStarted()) {
            String sessionId = event.sessionId().value();
            Folded folded = folded(CurrentUnitOfWork.get().root());
            folded.transitions.put(key(sessionId, sequence), transition);
            folded.latest.merge(sessionId, transition.after(), SessionViewCache::newer);
        }
        return transition;
    }

    /** The committed view of the session at exactly {@code version}, if it is kept. */
    public Optional<SessionView> committedAt(String sessionId, long version) {
        SessionView[] kept = committed.getIfPresent(sessionId);
        if (kept != null) {
            for (SessionView view : kept) {
                if (view.version() == version) {
                    return Optional.of(view);
                }
            }
        }
        return Optional.empty();
    }

    /** The newest committed view kept of the session, whatever its version. */
    public Optional<SessionView> latestCommitted(String sessionId) {
        SessionView[] kept = committed.getIfPresent(sessionId);
        return kept == null ? Optional.empty() : Optional.of(kept[kept.length - 1]);
    }

    /**
     * Asks that the views the unit of work handling command {@code commandId} leaves be kept for
     * {@link #takeAnswer} once it commits. Call before sending the command; {@link #takeAnswer} ends the wait.
     */
    public void expectAnswer(String commandId) {
        answers.put(commandId, NOTHING_YET);
    }

    /**
     * The session as command {@code commandId} left it, when its unit of work folded the session's events and
     * committed; forgets the command either way.
     */
    public Optional<SessionView> takeAnswer(String commandId, String sessionId) {
        Map<String, SessionView> views = answers.remove(commandId);
        return views == null ? Optional.empty() : Optional.ofNullable(views.get(sessionId));
    }

    /** {@code kept} and {@code offered} merged: distinct versions, the newest {@link #VERSIONS_KEPT}, by version. */
    private static SessionView[] merged(SessionView[] kept, SessionView[] offered) {
        TreeMap<Long, SessionView> byVersion = new TreeMap<>();
        for (SessionView view : kept) {
            byVersion.put(view.version(), view);
        }
        for (SessionView view : offered) {
            byVersion.putIfAbsent(view.version(), view);
        }
        while (byVersion.size() > VERSIONS_KEPT) {
            byVersion.pollFirstEntry();
        }
        return byVersion.values().toArray(SessionView[]::new);
    }

    private Folded folded(UnitOfWork<?> root) {
        return root.getOrComputeResource(resourceKey, key -> {
            Folded created = new Folded();
            root.afterCommit(unit -> {
                // each session's views of the unit (the one before its first event, then each event's), one merge each
                Map<String, List<SessionView>> bySession = new HashMap<>();
                for (Transition transition : created.transitions.values()) {
                    List<SessionView> views = bySession.computeIfAbsent(transition.after().id(), id -> new ArrayList<>());
                    if (transition.before() != null) {
                        views.add(transition.before());
                    }
                    views.add(transition.after());
                }
                bySession.forEach((sessionId, views) -> committed.asMap().merge(sessionId,
                        merged(NONE, views.toArray(SessionView[]::new)), SessionViewCache::merged));
                if (unit.getMessage() != null) {
                    answers.computeIfPresent(unit.getMessage().getIdentifier(),
                            (command, none) -> Map.copyOf(created.latest));
                }
            });
            return created;
        });
    }

    private static SessionView newer(SessionView kept, SessionView offered) {
        return offered.version() > kept.version() ? offered : kept;
    }

    private static String key(String sessionId, long sequence) {
        return sessionId + '#' + sequence;
    }

    /** What one unit of work has folded: every transition, and each session's latest view. */
    private static final class Folded {
        final Map<String, Transition> transitions = new HashMap<>();
        final Map<String, SessionView> latest = new HashMap<>();
    }
}
