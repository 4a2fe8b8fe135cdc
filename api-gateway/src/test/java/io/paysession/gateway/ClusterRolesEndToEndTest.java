package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.Cluster;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.ServiceProcess;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import io.paysession.gateway.support.WebhookReceiver.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One jar, roles chosen by {@code payments.roles} (issue 19): two API nodes and one node for the processes, the
 * projections and the webhooks, on one PostgreSQL, as an operator lays them out to scale the API apart. The API nodes
 * take every request and run no background work (no processor segment, no webhook sent); the other node serves no
 * partner path, only its health, and does all the background work: the rails, the deadlines, the reconciliation
 * ledger and the webhooks.
 */
class ClusterRolesEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(40);

    private Cluster cluster;
    private volatile String servicePublicKey;
    private final WebhookReceiver webhooks = new WebhookReceiver(() -> servicePublicKey);

    @AfterEach
    void stop() {
        webhooks.close();
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void twoApiNodesTakeTheRequestsAndTheBackgroundNodeDoesTheRest() {
        cluster = new Cluster("payments-roles", Map.of());
        ServiceProcess api1 = cluster.node("api");
        ServiceProcess api2 = cluster.node("api");
        ServiceProcess background = cluster.node("processes,projections,webhooks");
        Cluster.start(api1, api2, background);
        servicePublicKey = new ServiceClient(api1.baseUrl()).servicePublicKey();

        TestPartner partner = new TestPartner("roles-" + UUID.randomUUID().toString().substring(0, 8));
        ObjectNode registration = JsonNodeFactory.instance.objectNode()
                .put("project", partner.project())
                .put("public_key", partner.publicKeyPem())
                .put("webhook_url", webhooks.url(partner.project()))
                .put("capture_mode", "auto");
        Answer registered = new ServiceClient(api2.baseUrl()).admin("POST", "/admin/v1/partners",
                registration.toString(), TestServiceProperties.ADMIN_TOKEN);
        assertThat(registered.status()).as(registered.toString()).isEqualTo(201);

        // a 3-D Secure card: init on one API node, confirm and the payer on the other
        ObjectNode card = EndToEndTestBase.cardPayment("4000000000003220", "123");
        Answer init = partner.sameKeysAt(api1.baseUrl()).post("/api/v1/session/init/payment", card);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        String paid = init.session().path("id").asText();
        webhooks.await(paid, "ready_to_confirm", WAIT);
        assertThat(partner.sameKeysAt(api2.baseUrl()).post("/api/v1/session/confirm", sessionRef(paid)).status())
                .isEqualTo(200);
        String page = webhooks.await(paid, "action_required", WAIT).session().path("acquiring_payments").path(0)
                .path("customer_interaction").path("redirect").path("url").asText();
        Answer approved = TestPartner.exchange(HttpRequest.newBuilder(
                URI.create(api2.baseUrl() + URI.create(page).getPath() + "/approve"))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(approved.status()).as(approved.toString()).isEqualTo(200);
        Received finished = webhooks.await(paid, "payment_finished", WAIT);
        assertThat(finished.signatureValid()).isTrue();
        assertThat(finished.session().path("status").asText()).isEqualTo("accepted");

        // a deadline: a QR payment left unconfirmed is cancelled by the background node's scheduler
        ObjectNode qr = JsonNodeFactory.instance.objectNode();
        qr.putObject("payment_details").put("type", "internet_banking").putObject("internet_banking")
                .put("type", "qr_app_pay").putObject("qr_app_pay").put("phone", "79261234567");
        qr.putObject("amount_details").put("amount", 5000).put("currency", "rub");
        qr.putObject("customer").put("reference", "roles-customer");
        String late = partner.sameKeysAt(api2.baseUrl()).post("/api/v1/session/init/payment", qr).session()
                .path("id").asText();
        JsonNode cancelled = webhooks.await(late, "payment_finished", WAIT).session();
        assertThat(cancelled.path("error").path("code").asText()).isEqualTo("confirm_timeout");

        // the background node: its health, and nothing else
        Answer health = TestPartner.exchange(HttpRequest.newBuilder(URI.create(background.baseUrl()
                + "/actuator/health")).GET().build());
        assertThat(health.status()).isEqualTo(200);
        Answer refused = partner.sameKeysAt(background.baseUrl()).post("/api/v1/session/status", sessionRef(paid));
        assertThat(refused.status()).isEqualTo(404);
        assertThat(refused.errorCode()).isEqualTo("invalid_request");
        URI pageOnBackground = URI.create(background.baseUrl() + URI.create(page).getPath());
        assertThat(TestPartner.exchange(HttpRequest.newBuilder(pageOnBackground).GET().build()).status())
                .as("no payer page either").isEqualTo(404);

        // every processor segment on the background node, every webhook sent by it
        String backgroundOwner = Cluster.tokenOwner(background);
        assertThat(cluster.segmentsByOwner("payment-process")).isEqualTo(Map.of(backgroundOwner, 8));
        assertThat(cluster.segmentsByOwner("settlement")).isEqualTo(Map.of(backgroundOwner, 1));
        String backgroundLog = background.output(1);
        for (String session : List.of(paid, late)) {
            assertThat(backgroundLog).as("the background node sent the webhooks of " + session)
                    .contains("delivered: session=" + session + " type=payment_finished");
            assertThat(api1.output(1) + api2.output(1)).doesNotContain("delivered: session=" + session);
        }
        assertThat(api1.output(1)).contains("roles:          api").doesNotContain("Webhook dispatcher");

        // the reconciliation ledger the background node keeps, read on an API node
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String report = "/admin/v1/reports/reconciliation?project=" + partner.project() + "&from="
                + today.minusDays(1) + "&to=" + today.plusDays(1);
        await().atMost(WAIT).untilAsserted(() -> {
            Answer answer = new ServiceClient(api1.baseUrl()).admin("GET", report, null, TestServiceProperties.ADMIN_TOKEN);
            assertThat(answer.body().path("report").path("rows").findValuesAsText("operation")).contains("payment");
        });

        // the payment processes' dead letters are retried where the processes run: the background node serves the
        // operator's API; an API node says where to go instead of failing
        String retry = "/admin/v1/dead-letters/payment-process/retry";
        Answer onApiNode = new ServiceClient(api1.baseUrl()).admin("POST", retry, "{}", TestServiceProperties.ADMIN_TOKEN);
        assertThat(onApiNode.status()).as(onApiNode.toString()).isEqualTo(409);
        assertThat(onApiNode.errorCode()).isEqualTo("invalid_request");
        assertThat(onApiNode.errorDescription()).contains("does not run on this node", "payments.roles");
        Answer onBackground = new ServiceClient(background.baseUrl()).admin("POST", retry, "{}",
                TestServiceProperties.ADMIN_TOKEN);
        assertThat(onBackground.status()).as(onBackground.toString()).isEqualTo(200);
        assertThat(onBackground.body().path("sessions_retried").asInt()).isZero();
    }

    private static ObjectNode sessionRef(String sessionId) {
        return JsonNodeFactory.instance.objectNode().put("session_id", sessionId);
    }
}
