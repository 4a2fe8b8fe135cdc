package io.paysession.query.session;

import io.paysession.api.session.view.SessionView;

import java.util.Optional;

/** Where session views are kept; a table in production, a map in tests of the projection. */
public interface SessionViewRepository {

    Optional<SessionView> find(String sessionId);

    void save(SessionView view);
}
