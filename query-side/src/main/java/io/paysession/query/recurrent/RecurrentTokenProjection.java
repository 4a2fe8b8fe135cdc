package io.paysession.query.recurrent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.erasure.PersonalData;
import io.paysession.api.recurrent.FindRecurrentTokenQuery;
import io.paysession.api.session.PersonalDataErasedEvent;
import io.paysession.api.recurrent.RecurrentTokenDisabledEvent;
import io.paysession.api.recurrent.RecurrentTokenIssuedEvent;
import io.paysession.api.recurrent.RecurrentTokenView;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.wire.PaymentJson;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Recurrent tokens by their value: whose, standing for which method, active or since when disabled. */
@Component
@ProcessingGroup(RecurrentTokenProjection.PROCESSING_GROUP)
public class RecurrentTokenProjection {

    public static final String PROCESSING_GROUP = "recurrent-tokens";

    private final JdbcTemplate jdbc;
    private final ObjectMapper json = PaymentJson.newObjectMapper();

    public RecurrentTokenProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(RecurrentTokenIssuedEvent event) throws JsonProcessingException {
        jdbc.update("""
                        insert into recurrent_token (token, project, source, session_id, payment_id, created_at)
                        values (?, ?, cast(? as jsonb), ?, ?, ?) on conflict (token) do nothing""",
                event.token(), event.project(), json.writeValueAsString(event.source()), event.sessionId().value(),
                event.paymentId().value(), Timestamp.from(event.occurredAt()));
    }

    @EventHandler
    void on(RecurrentTokenDisabledEvent event) {
        jdbc.update("update recurrent_token set disabled_at = ? where token = ? and disabled_at is null",
                Timestamp.from(event.occurredAt()), event.token());
    }

    /** The session's personal data was erased: the sources of the tokens it granted read as the erased events do. */
    @EventHandler
    void on(PersonalDataErasedEvent event) throws JsonProcessingException {
        List<Map<String, Object>> tokens = jdbc.queryForList(
                "select token, source::text as source from recurrent_token where session_id = ?", event.sessionId().value());
        for (Map<String, Object> token : tokens) {
            PaymentMethod erased = PersonalData.erased(read((String) token.get("source")), PaymentMethod.class);
            jdbc.update("update recurrent_token set source = cast(? as jsonb) where token = ?",
                    json.writeValueAsString(erased), token.get("token"));
        }
    }

    @QueryHandler
    Optional<RecurrentTokenView> handle(FindRecurrentTokenQuery query) {
        List<RecurrentTokenView> found = jdbc.query("select * from recurrent_token where token = ?",
                (row, index) -> new RecurrentTokenView(row.getString("token"), row.getString("project"),
                        read(row.getString("source")), row.getTimestamp("created_at").toInstant(),
                        row.getTimestamp("disabled_at") == null ? null : row.getTimestamp("disabled_at").toInstant()),
                query.token());
        return found.stream().findFirst();
    }

    private PaymentMethod read(String text) {
        try {
            return json.readValue(text, PaymentMethod.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable recurrent token source", e);
        }
    }
}
