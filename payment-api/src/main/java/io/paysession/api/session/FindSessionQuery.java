package io.paysession.api.session;

/** Answers with an {@code Optional<SessionView>}. */
public record FindSessionQuery(SessionId sessionId) {
}
