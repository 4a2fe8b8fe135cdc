package io.paysession.query.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.wire.PaymentJson;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

import java.sql.Timestamp;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Session views as JSON in {@code session_view}, with the columns reports filter on beside it. */
@Repository
public class JdbcSessionViewRepository implements SessionViewRepository {

    private final JdbcTemplate jdbc;
    private final String table;
    private final ObjectMapper json = PaymentJson.newObjectMapper();

    @Autowired
    public JdbcSessionViewRepository(JdbcTemplate jdbc) {
        this(jdbc, "session_view");
    }

    /** Views in {@code table}: the live one, or a rebuild compared with it. */
    public JdbcSessionViewRepository(JdbcTemplate jdbc, String table) {
        if (!table.matches("[a-z_]{1,48}")) {
            throw new IllegalArgumentException("bad table name " + table);
        }
        this.jdbc = jdbc;
        this.table = table;
    }

    @Override
    public Optional<SessionView> find(String sessionId) {
        List<SessionView> found = jdbc.query("select view from " + table + " where session_id = ?",
                (row, index) -> read(row.getString("view")), sessionId);
        return found.stream().findFirst();
    }

    @Override
    public void save(SessionView view) {
        jdbc.update(upsert(), row(view));
    }

    /** {@link #save} of each view, sent as one JDBC batch. */
    public void saveAll(Collection<SessionView> views) {
        if (!views.isEmpty()) {
            jdbc.batchUpdate(upsert(), views.stream().map(this::row).toList());
        }
    }

    private String upsert() {
        return "insert into " + table + " (session_id, project, api_version, status, version, view, created_at,"
                + " updated_at) values (?, ?, ?, ?, ?, cast(? as jsonb), ?, ?) on conflict (session_id) do update"
                + " set status = excluded.status, version = excluded.version, view = excluded.view,"
                + " updated_at = excluded.updated_at where " + table + ".version < excluded.version";
    }

    private Object[] row(SessionView view) {
        return new Object[] {view.id(), view.project(), view.apiVersion().pathSegment(), view.status().wireName(),
                view.version(), write(view), Timestamp.from(view.createdAt()), Timestamp.from(view.updatedAt())};
    }

    private SessionView read(String text) {
        try {
            return json.readValue(text, SessionView.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable session view", e);
        }
    }

    private String write(SessionView view) {
        try {
            return json.writeValueAsString(view);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("session view cannot be written", e);
        }
    }
}
