package io.paysession.gateway.infra;

import io.paysession.api.error.ErrorCode;
import io.paysession.gateway.http.ApiResponses;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tomcat's report of a request it refused before any servlet saw it (a header over the size limit, a
 * malformed escape in the path) is the contract's error body instead of Tomcat's HTML page. Everything that
 * reaches Spring is answered by Spring ({@code ApiExceptionHandler}, {@code JsonErrorController}).
 */
public class JsonErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        AtomicBoolean writable = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, writable);
        if (!writable.get()) {
            return;
        }
        String body = status >= 500
                ? ApiResponses.errorBody(ErrorCode.INTERNAL_ERROR, "Internal error").toString()
                : ApiResponses.errorBody(ErrorCode.INVALID_REQUEST, "The request cannot be read as HTTP").toString();
        try {
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            PrintWriter writer = response.getReporter();
            if (writer != null) {
                writer.write(body);
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the connection is gone or the response already started: nothing more can be said
        }
    }
}
