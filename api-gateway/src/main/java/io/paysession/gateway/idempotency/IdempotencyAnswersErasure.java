package io.paysession.gateway.idempotency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.view.SessionView;
import io.paysession.gateway.erasure.Erasures;
import io.paysession.gateway.http.ApiResponses;
import io.paysession.gateway.http.SessionStates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * After an erasure, the answers kept with the idempotency keys of the session (a retry gets them again, byte for byte)
 * are rendered again from the erased events, as the session was after each request: the retry still gets the same
 * answer, with the personal fields erased.
 */
@Component
class IdempotencyAnswersErasure implements Erasures.ErasureListener {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyAnswersErasure.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JdbcTemplate jdbc;
    private final SessionStates sessions;

    IdempotencyAnswersErasure(JdbcTemplate jdbc, SessionStates sessions) {
        this.jdbc = jdbc;
        this.sessions = sessions;
    }

    @Override
    public void erased(SessionId session) {
        List<Map<String, Object>> answers = jdbc.queryForList("""
                select project, idempotency_key, endpoint, owner_request_id, response_body from idempotency_key
                 where session_id = ? and state = 'completed' and response_status = 200""", session.value());
        for (Map<String, Object> answer : answers) {
            String endpoint = (String) answer.get("endpoint");
            Optional<ApiVersion> version = versionOf(endpoint);
            Optional<SessionView> view = sessions.stateAfterRequest(session, (String) answer.get("owner_request_id"));
            if (version.isEmpty() || view.isEmpty() || !holdsASession((byte[]) answer.get("response_body"))) {
                log.warn("The answer kept with an idempotency key of {} ({}) was not rendered again after its erasure",
                        session, endpoint);
                continue;
            }
            try {
                byte[] body = JSON.writeValueAsBytes(ApiResponses.session(view.get(), version.get()).getBody());
                jdbc.update("update idempotency_key set response_body = ? where project = ? and idempotency_key = ?",
                        body, answer.get("project"), answer.get("idempotency_key"));
            } catch (IOException e) {
                throw new IllegalStateException("an answer could not be rendered", e);
            }
        }
    }

    private static boolean holdsASession(byte[] body) {
        try {
            JsonNode tree = body == null ? null : JSON.readTree(body);
            return tree != null && tree.has("session");
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code POST /api/v1/...}: the API version of the path. */
    private static Optional<ApiVersion> versionOf(String endpoint) {
        int api = endpoint.indexOf("/api/");
        return api < 0 || endpoint.length() < api + "/api/v1".length() ? Optional.empty()
                : ApiVersion.parse(endpoint.substring(api + "/api/".length(), api + "/api/v1".length()));
    }
}
