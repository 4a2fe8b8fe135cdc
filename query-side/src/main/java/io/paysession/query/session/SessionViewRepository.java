package io.paysession.query.session;

import io.paysession.api.session.view.SessionView;

import java.util.Optional;

/** Where session views are kept; a table in production, a map in tests of the projection. */
public interface SessionViewRepository {

    Optional<SessionView> find(String sessionId);

    /** Stores {@code view} unless the view stored for its session is already at its version or newer. */
    void save(SessionView view);
}
