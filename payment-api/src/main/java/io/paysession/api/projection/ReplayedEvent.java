package io.paysession.api.projection;

import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.view.SessionView;

/**
 * A stored session event as a rebuild sees it: the event, the session folded up to just before it and just
 * after it, and where it sits in the store (its identifier, its sequence in the session, its global position).
 */
public record ReplayedEvent(SessionEvent event, SessionView before, SessionView after, String eventId, long sequence,
                            long globalIndex) {
}
