package io.paysession.query.session;

import io.paysession.api.session.FindSessionQuery;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewFold;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * Folds each session event into the stored view with the shared {@link SessionViewFold}. An event the
 * view already contains (a redelivery or a replay over a live table) is skipped, so folding is
 * idempotent.
 */
@Component
@ProcessingGroup(SessionViewProjection.PROCESSING_GROUP)
public class SessionViewProjection {

    public static final String PROCESSING_GROUP = "session-views";

    private final SessionViewRepository views;

    public SessionViewProjection(SessionViewRepository views) {
        this.views = views;
    }

    /** Also what a rebuild into another table calls for each event. */
    @EventHandler
    public void on(SessionEvent event, @SequenceNumber long sequenceNumber) {
        Optional<SessionView> current = views.find(event.sessionId().value());
        if (current.isPresent() && current.get().version() >= sequenceNumber) {
            return;
        }
        views.save(SessionViewFold.apply(current.orElse(null), event, sequenceNumber));
    }

    @QueryHandler
    Optional<SessionView> handle(FindSessionQuery query) {
        return views.find(query.sessionId().value());
    }
}
