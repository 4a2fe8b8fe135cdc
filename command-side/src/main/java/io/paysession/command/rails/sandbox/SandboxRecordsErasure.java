package io.paysession.command.rails.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.paysession.api.erasure.PersonalData;
import io.paysession.api.session.RailOrder;
import io.paysession.api.wire.PaymentJson;
import io.paysession.command.erasure.PersonalDataRecords;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The sandbox rails' own records of erased sessions (docs/erasure.md): the orders they were given (the QR payer's
 * phone, the return URL) are erased in place, the phone digits a push went to deleted, the bank account tokens of
 * their answers erased. Amounts and ids stay: the sandbox acquirer still answers refunds of a final session.
 */
@Component
@ConditionalOnSandboxRails
public class SandboxRecordsErasure implements PersonalDataRecords {

    private final JdbcTemplate jdbc;
    private final ObjectMapper json = PaymentJson.newObjectMapper();

    public SandboxRecordsErasure(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void erase(List<String> sessionIds) {
        Object ids = sessionIds.toArray(String[]::new);
        jdbc.update("""
                delete from sandbox_payer_push where interaction_id in (
                    select id from sandbox_interaction where session_id = any(?))""", ids);
        for (Map<String, Object> row : jdbc.queryForList(
                "select id, rail_order::text as rail_order from sandbox_interaction where session_id = any(?)", ids)) {
            RailOrder order = PersonalData.erased(read((String) row.get("rail_order"), RailOrder.class), RailOrder.class);
            jdbc.update("update sandbox_interaction set rail_order = cast(? as jsonb) where id = ?", write(order),
                    row.get("id"));
        }
        for (Map<String, Object> row : jdbc.queryForList("""
                select kind, operation_id, answer::text as answer from sandbox_rail_ledger
                 where payment_id in (select operation_id from rail_call where session_id = any(?))""", ids)) {
            JsonNode answer = readTree((String) row.get("answer"));
            if (eraseMember(answer, "bankAccountRuToken")) {
                jdbc.update("update sandbox_rail_ledger set answer = cast(? as jsonb) where kind = ? and operation_id = ?",
                        answer.toString(), row.get("kind"), row.get("operation_id"));
            }
        }
    }

    private static boolean eraseMember(JsonNode node, String name) {
        boolean erased = false;
        if (node instanceof ObjectNode object) {
            if (object.hasNonNull(name)) {
                object.set(name, TextNode.valueOf(PersonalData.PLACEHOLDER));
                erased = true;
            }
            List<JsonNode> children = new ArrayList<>();
            object.elements().forEachRemaining(children::add);
            for (JsonNode child : children) {
                erased |= eraseMember(child, name);
            }
        } else if (node != null && node.isArray()) {
            for (JsonNode child : node) {
                erased |= eraseMember(child, name);
            }
        }
        return erased;
    }

    private <T> T read(String text, Class<T> type) {
        try {
            return json.readValue(text, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode readTree(String text) {
        try {
            return json.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
