package io.paysession.query.session;

import io.paysession.api.session.FindSessionQuery;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewCache;
import io.paysession.api.session.view.SessionViewCache;
import io.paysession.api.session.view.SessionViewFold;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * Folds each session event into the stored view with the shared {@link SessionViewFold}. An event the
 * view already contains (a redelivery or a replay over a live table) is skipped, so folding is
 * idempotent. In a command's transaction the session before the event usually comes from the
 * {@link SessionViewCache} (the command's own earlier events, or the last committed view), and the stored
 * view is then written without being read first; the write still never replaces a newer view.
 */
@Component
@ProcessingGroup(SessionViewProjection.PROCESSING_GROUP)
public class SessionViewProjection {

    public static final String PROCESSING_GROUP = "session-views";

    private final SessionViewRepository views;
    private final SessionViewCache cache;

    /** Reads each view from {@code views} before folding (a rebuild, a test). */
    public SessionViewProjection(SessionViewRepository views) {
        this(views, null);
    }

    @Autowired
    public SessionViewProjection(SessionViewRepository views, SessionViewCache cache) {
        this.views = views;
        this.cache = cache;
    }

    /** Also what a rebuild into another table calls for each event. */
    @EventHandler
    public void on(SessionEvent event, @SequenceNumber long sequenceNumber) {
        Optional<SessionViewCache.Transition> known = cache == null ? Optional.empty()
                : cache.known(event, sequenceNumber);
        if (known.isPresent()) {
            views.save(known.get().after());
            return;
        }
        Optional<SessionView> current = views.find(event.sessionId().value());
        if (current.isPresent() && current.get().version() >= sequenceNumber) {
            return;
        }
        SessionView before = current.orElse(null);
        boolean exactlyBefore = before == null ? sequenceNumber == 0 : before.version() == sequenceNumber - 1;
        views.save(cache != null && exactlyBefore ? cache.record(event, sequenceNumber, before).after()
                : SessionViewFold.apply(before, event, sequenceNumber));
    }

    @QueryHandler
    Optional<SessionView> handle(FindSessionQuery query) {
        return views.find(query.sessionId().value());
    }
}
