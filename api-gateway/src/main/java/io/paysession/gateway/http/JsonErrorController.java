package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Errors that happen outside the controllers (in the container or a filter) get the same JSON body. */
@RestController
public class JsonErrorController implements ErrorController {

    @RequestMapping("/error")
    public ResponseEntity<ObjectNode> error(HttpServletRequest request) {
        Object statusAttribute = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = statusAttribute instanceof Integer code ? code : 500;
        if (status >= 500) {
            return ApiResponses.error(status, ErrorCode.INTERNAL_ERROR, "Internal error");
        }
        if (status == 404) {
            return ApiResponses.error(404, ErrorCode.INVALID_REQUEST, "Unknown method");
        }
        return ApiResponses.error(status, ErrorCode.INVALID_REQUEST, "The request cannot be processed");
    }
}
