package io.paysession.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.http.HttpHeaders;

/** An HTTP answer of the service: status, parsed JSON body (or a missing node), headers and raw text. */
public record Answer(int status, JsonNode body, HttpHeaders headers, String text) {

    public JsonNode session() {
        return body.path("session");
    }

    public String errorCode() {
        return body.path("error").path("code").asText(null);
    }

    public String errorDescription() {
        return body.path("error").path("description").asText(null);
    }

    @Override
    public String toString() {
        return status + " " + text;
    }
}
