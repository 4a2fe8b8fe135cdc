package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.view.SessionRepresentation;
import io.paysession.api.session.view.SessionView;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/** The two shapes of every answer: {@code {"status":"ok", ...}} and {@code {"status":"error","error":{...}}}. */
public final class ApiResponses {

    private ApiResponses() {
    }

    public static ObjectNode ok() {
        return JsonNodeFactory.instance.objectNode().put("status", "ok");
    }

    public static ResponseEntity<ObjectNode> session(SessionView view, ApiVersion version) {
        ObjectNode body = ok();
        body.set("session", SessionRepresentation.render(view, version));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    public static ObjectNode errorBody(ErrorCode code, String description) {
        ObjectNode body = JsonNodeFactory.instance.objectNode().put("status", "error");
        body.putObject("error").put("code", code.code()).put("description", description);
        return body;
    }

    public static ResponseEntity<ObjectNode> error(ErrorCode code, String description) {
        return error(code.httpStatus(), code, description);
    }

    public static ResponseEntity<ObjectNode> error(int httpStatus, ErrorCode code, String description) {
        return ResponseEntity.status(httpStatus).contentType(MediaType.APPLICATION_JSON)
                .body(errorBody(code, description));
    }
}
