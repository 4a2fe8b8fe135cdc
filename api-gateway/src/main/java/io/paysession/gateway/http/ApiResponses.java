package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.view.SessionRepresentation;
import io.paysession.api.session.view.SessionView;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import java.io.IOException;

/** The two shapes of every answer: {@code {"status":"ok", ...}} and {@code {"status":"error","error":{...}}}. */
public final class ApiResponses {

    private static final ObjectMapper JSON = new ObjectMapper();

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

    /** An error answered by a servlet filter, before any controller. */
    public static void writeError(HttpServletResponse response, int httpStatus, ErrorCode code, String description)
            throws IOException {
        response.setStatus(httpStatus);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        JSON.writeValue(response.getOutputStream(), errorBody(code, description));
    }
}
