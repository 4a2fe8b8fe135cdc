package io.paysession.gateway;

import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.RawHttpConnection;
import io.paysession.gateway.support.RawHttpConnection.RawAnswer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bodies are bounded on every path, and a caller without credentials is answered without a byte of its body being
 * read. The requests are written by hand ({@link RawHttpConnection}): each announces a body (a 256 MiB
 * {@code Content-Length}, or chunks without end) and sends only part of it, or none, before it waits for the answer.
 * A service that read the body before answering would wait for the rest and never answer; the bytes sent when the
 * answer came are the most the service can have read.
 */
class RequestBodyLimitsEndToEndTest extends EndToEndTestBase {

    private static final String HUGE = "Content-Length: " + 256L * 1024 * 1024;
    private static final String CHUNKED = "Transfer-Encoding: chunked";
    private static final String JSON = "Content-Type: application/json";
    private static final String ADMIN = "Authorization: Bearer " + TestServiceProperties.ADMIN_TOKEN;
    private static final int LIMIT = 64 * 1024;

    @Test
    void anAdminRequestWithoutTheAdminTokenIsRefusedWithItsBodyUnread() {
        for (String[] request : new String[][]{
                {"POST", "/admin/v1/partners", HUGE},
                {"POST", "/admin/v1/partners", CHUNKED},
                {"PUT", "/admin/v1/partners/some-project", HUGE},
                {"POST", "/admin/v1/webhooks/redeliver-parked?project=x", CHUNKED}}) {
            for (String credentials : new String[]{"X-Nothing: 1", "Authorization: Bearer wrong-token-0123456789abcdef"}) {
                try (RawHttpConnection connection = new RawHttpConnection(port)) {
                    RawAnswer answer = connection.head(request[0], request[1], JSON, request[2], credentials).answer();
                    assertThat(answer.status()).as(String.join(" ", request) + " " + credentials).isEqualTo(401);
                    assertThat(answer.errorCode()).isEqualTo("authentication_error");
                    assertThat(connection.bodyBytesSent()).isZero();
                }
            }
        }
    }

    @Test
    void theActuatorUnknownPathsAndTheWidgetAnswerWithTheBodyUnread() {
        try (RawHttpConnection connection = new RawHttpConnection(port)) {
            RawAnswer answer = connection.head("POST", "/actuator/prometheus", JSON, HUGE).answer();
            assertThat(answer.status()).isEqualTo(401);
            assertThat(answer.errorCode()).isEqualTo("authentication_error");
        }
        for (String path : new String[]{"/no/such/path", "/api/v1/no-such-method-but-unsigned", "/admin/v1/nothing-here"}) {
            try (RawHttpConnection connection = new RawHttpConnection(port)) {
                RawAnswer answer = connection.head("POST", path, JSON, CHUNKED,
                        path.startsWith("/admin") ? ADMIN : "X-Nothing: 1").answer();
                assertThat(answer.status()).as(path).isIn(403, 404);
                assertThat(connection.bodyBytesSent()).isZero();
            }
        }
        try (RawHttpConnection connection = new RawHttpConnection(port)) {
            RawAnswer answer = connection.head("POST", "/cds/v1/tokenize/card", JSON, HUGE,
                    "X-PUBLIC-TOKEN: " + "0".repeat(64)).answer();
            assertThat(answer.status()).isEqualTo(401);
            assertThat(answer.errorCode()).isEqualTo("authentication_error");
        }
    }

    @Test
    void aDeclaredLengthOverTheLimitIsRefusedBeforeAByteOfItIsRead() {
        try (RawHttpConnection connection = new RawHttpConnection(port)) {
            RawAnswer answer = connection.head("POST", "/admin/v1/partners", JSON, HUGE, ADMIN).answer();
            assertThat(answer.status()).isEqualTo(413);
            assertThat(answer.errorCode()).isEqualTo("invalid_request");
            assertThat(answer.json().path("error").path("description").asText()).contains("64 KiB");
        }
        TestPartner partner = registeredPartner("huge-length");
        try (RawHttpConnection connection = new RawHttpConnection(port)) {
            RawAnswer answer = connection.head("POST", "/api/v1/session/create", JSON, HUGE,
                    "X-PARTNER-PROJECT: " + partner.project(), "X-PARTNER-SIGN: c2lnbg==").answer();
            assertThat(answer.status()).isEqualTo(413);
            assertThat(answer.headers()).containsKey("x-request-id");
        }
        String token = publicToken(partner);
        try (RawHttpConnection connection = new RawHttpConnection(port)) {
            RawAnswer answer = connection.head("POST", "/cds/v1/tokenize/card", JSON, HUGE, "X-PUBLIC-TOKEN: " + token)
                    .answer();
            assertThat(answer.status()).isEqualTo(413);
        }
    }

    @Test
    void aChunkedBodyIsCutOneBytePastTheLimitWithoutWaitingForItsEnd() {
        try (RawHttpConnection connection = new RawHttpConnection(port)) {
            RawAnswer answer = connection.head("POST", "/admin/v1/partners", JSON, CHUNKED, ADMIN).chunks(LIMIT + 1).answer();
            assertThat(answer.status()).isEqualTo(413);
            assertThat(answer.errorCode()).isEqualTo("invalid_request");
            assertThat(connection.bodyBytesSent()).isEqualTo(LIMIT + 1);
        }
        TestPartner partner = registeredPartner("chunked");
        try (RawHttpConnection connection = new RawHttpConnection(port)) {
            RawAnswer answer = connection.head("POST", "/api/v1/session/create", JSON, CHUNKED,
                    "X-PARTNER-PROJECT: " + partner.project(), "X-PARTNER-SIGN: c2lnbg==").chunks(LIMIT + 1).answer();
            assertThat(answer.status()).isEqualTo(413);
        }
        String token = publicToken(partner);
        try (RawHttpConnection connection = new RawHttpConnection(port)) {
            RawAnswer answer = connection.head("POST", "/cds/v1/tokenize/card", JSON, CHUNKED, "X-PUBLIC-TOKEN: " + token)
                    .chunks(LIMIT + 1).answer();
            assertThat(answer.status()).isEqualTo(413);
        }
        // the token was only looked at: a body within the limit still uses it
        assertThat(tokenizeCard(token, "{\"card\":{\"number\":\"4242424242424242\"}}").status()).isEqualTo(200);
    }

    @Test
    void aChunkedAdminBodyWithinTheLimitIsRead() {
        TestPartner partner = new TestPartner("chunked-admin-" + System.nanoTime());
        String body = "{\"project\":\"" + partner.project() + "\",\"public_key\":"
                + com.fasterxml.jackson.databind.node.TextNode.valueOf(partner.publicKeyPem()) + ","
                + "\"webhook_url\":\"https://partner.example/hooks\"}";
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        // a stream body without a length is sent chunked by the JDK client
        Answer answer = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/admin/v1/partners"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + TestServiceProperties.ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(bytes)))
                .build());
        assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
    }

    @Test
    void anAdminBodyMustBeDeclaredAsJson() {
        String body = "{\"project\":\"never-registered\"}";
        Answer plain = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/admin/v1/partners"))
                .header("Content-Type", "text/plain")
                .header("Authorization", "Bearer " + TestServiceProperties.ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        assertThat(plain.status()).isEqualTo(415);
        assertThat(plain.errorCode()).isEqualTo("invalid_request");
        Answer form = TestPartner.exchange(HttpRequest.newBuilder(URI.create(baseUrl() + "/admin/v1/partners"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("project=x")).build());
        assertThat(form.status()).as("the token is checked first").isEqualTo(401);
        Answer noBody = admin("POST", "/admin/v1/webhooks/redeliver-parked", null, TestServiceProperties.ADMIN_TOKEN);
        assertThat(noBody.status()).as(noBody.toString()).isEqualTo(400);
        assertThat(noBody.errorDescription()).contains("project is required");
    }
}
