package io.paysession.webhook.notification;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.session.view.SessionRepresentation;
import io.paysession.api.session.view.SessionView;

/**
 * The JSON text of a webhook: {@code {"type", "session"}} with the session in the naming of the API
 * version that created it. Rendered once and stored, so every retry sends (and signs) the same bytes.
 */
public final class WebhookBody {

    // The tree is already in wire form; a plain mapper writes it as it is, whatever the app's Jackson settings.
    private static final ObjectMapper JSON = new ObjectMapper();

    private WebhookBody() {
    }

    public static String render(WebhookType type, SessionView session) {
        ObjectNode body = JSON.createObjectNode();
        body.put("type", type.wireName());
        body.set("session", SessionRepresentation.render(session));
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the webhook body of session " + session.id(), e);
        }
    }
}
