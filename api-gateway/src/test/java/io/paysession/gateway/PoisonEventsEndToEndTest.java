package io.paysession.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.command.process.PaymentProcess;
import io.paysession.gateway.support.Answer;
import io.paysession.gateway.support.ServiceClient;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.gateway.support.WebhookReceiver;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.deadletter.GenericDeadLetter;
import org.axonframework.messaging.deadletter.SequencedDeadLetterQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 15, poison events: one session whose events the payment process cannot handle is parked after a
 * bounded number of attempts, while the other sessions of the same segment go on; an operator sees it
 * (admin API, metrics), and, once the fault is gone, a retry handles its events in order; or drops them
 * with a reason. The fault is a step of the payment process that fails for sessions of one customer.
 */
@AutoConfigureObservability
@SpringBootTest(classes = {PaymentSessionServiceApplication.class, PoisonEventsEndToEndTest.FaultyStep.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {EndToEndTestBase.LOG_FILE_SETTING, EndToEndTestBase.LOG_LEVEL_SETTING,
                EndToEndTestBase.WEB_LOG_LEVEL_SETTING})
class PoisonEventsEndToEndTest {

    private static final Path DATA_DIRECTORY = TestServiceProperties.newDataDirectory("payments-poison");
    private static final String GROUP = PaymentProcess.PROCESSING_GROUP;
    /** payment-process runs 8 segments; a session's segment is its id's hash code masked like Axon's Segment does. */
    private static final int SEGMENT_MASK = 7;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @DynamicPropertySource
    static void serviceProperties(DynamicPropertyRegistry registry) {
        TestServiceProperties.forDataDirectory(DATA_DIRECTORY).forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    EventProcessingConfiguration processing;

    @Autowired
    EventStore eventStore;

    /**
     * A step of the payment process (a handler of its processing group) that fails for every event of the
     * sessions whose customer reference is {@link #poisonedCustomer}: a statement of its fails in the processor's
     * transaction, with request data in the error's message.
     */
    @ProcessingGroup(PaymentProcess.PROCESSING_GROUP)
    static class FaultyStep {

        static volatile String poisonedCustomer;
        static volatile String requestData = "";
        static final Set<String> poisonedSessions = ConcurrentHashMap.newKeySet();
        static final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
        static final Map<String, List<Long>> handled = new ConcurrentHashMap<>();

        private final JdbcTemplate jdbc;

        FaultyStep(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @EventHandler
        void on(SessionEvent event, DomainEventMessage<?> message) {
            String session = message.getAggregateIdentifier();
            if (event instanceof SessionCreatedEvent created && created.paymentDraft() != null
                    && created.paymentDraft().customer() != null && poisonedCustomer != null
                    && poisonedCustomer.equals(created.paymentDraft().customer().path("reference").asText())) {
                poisonedSessions.add(session);
            }
            if (poisonedSessions.contains(session) && poisonedCustomer != null) {
                failures.computeIfAbsent(session + "/" + message.getSequenceNumber(), key -> new AtomicInteger())
                        .incrementAndGet();
                // a statement that fails in the processor's transaction (aborting it, as PostgreSQL does), with
                // the data that made it fail quoted in its message, as PostgreSQL's messages do
                jdbc.queryForObject("select cast(? as integer)", Integer.class, requestData);
            }
            handled.computeIfAbsent(session, key -> new CopyOnWriteArrayList<>()).add(message.getSequenceNumber());
        }
    }

    @AfterEach
    void clearFault() {
        FaultyStep.poisonedCustomer = null;
    }

    @Test
    void aPoisonedSessionIsParkedWhileTheOthersOfItsSegmentGoOnAndARetryHandlesItInOrder() throws Exception {
        ServiceClient client = new ServiceClient(baseUrl());
        TestPartner partner = client.register(new TestPartner("poison-" + UUID.randomUUID().toString().substring(0, 8)),
                WebhookReceiver.url(WebhookReceiver.freePort(), "poison"));
        String poisoned = "poisoned-" + UUID.randomUUID();
        String requestData = "request-data-" + UUID.randomUUID();
        FaultyStep.poisonedCustomer = poisoned;
        FaultyStep.requestData = requestData;

        String sessionA = createAndStartPayment(partner, poisoned);
        // sessions of other customers until one shares A's segment: each must get to ready_to_confirm
        List<String> others = new ArrayList<>();
        String sameSegment = null;
        while (sameSegment == null && others.size() < 40) {
            String other = initPayment(partner, "customer-" + others.size());
            others.add(other);
            if ((other.hashCode() & SEGMENT_MASK) == (sessionA.hashCode() & SEGMENT_MASK)) {
                sameSegment = other;
            }
        }
        assertThat(sameSegment).as("a session on the segment of " + sessionA).isNotNull();
        for (String other : others) {
            awaitNextAction(partner, other, "confirm");
        }
        String neighbour = sameSegment;
        ServiceClient.confirm(partner, neighbour);
        await().atMost(WAIT).until(() -> status(partner, neighbour).path("status").asText().equals("accepted"));

        // A: parked after exactly the configured 3 attempts at its first event, its second event parked behind it
        assertThat(FaultyStep.failures.get(sessionA + "/0")).hasValue(3);
        assertThat(FaultyStep.failures).doesNotContainKey(sessionA + "/1");
        JsonNode a = status(partner, sessionA);
        assertThat(a.path("status").asText()).isEqualTo("in_progress");
        assertThat(a.has("next_action")).as("A's pre-check never ran: " + a).isFalse();

        Answer summary = client.admin("GET", "/admin/v1/dead-letters");
        assertThat(summary.status()).as(summary.toString()).isEqualTo(200);
        assertThat(group(summary.body(), GROUP).path("sessions").asLong()).isEqualTo(1);
        assertThat(group(summary.body(), GROUP).path("events").asLong()).isEqualTo(2);
        Answer listed = client.admin("GET", "/admin/v1/dead-letters/" + GROUP + "/" + sessionA);
        assertThat(listed.status()).as(listed.toString()).isEqualTo(200);
        JsonNode events = listed.body().path("session").path("events");
        assertThat(events).hasSize(2);
        assertThat(events.get(0).path("event_type").asText()).isEqualTo("SessionCreatedEvent");
        assertThat(events.get(0).path("session_sequence").asLong()).isZero();
        assertThat(events.get(1).path("event_type").asText()).isEqualTo("PaymentStartedEvent");
        assertThat(events.get(1).path("session_sequence").asLong()).isEqualTo(1);
        assertThat(events.get(0).path("cause").path("description").asText())
                .startsWith("org.springframework.dao.").contains("org.postgresql.util.PSQLException");
        assertThat(events.get(0).path("diagnostics").path("failure").asText())
                .startsWith("org.springframework.dao.").endsWith("<- org.postgresql.util.PSQLException");
        Answer groupList = client.admin("GET", "/admin/v1/dead-letters/" + GROUP);
        assertThat(groupList.body().path("sessions")).hasSize(1);
        assertThat(groupList.body().path("sessions").get(0).path("session_id").asText()).isEqualTo(sessionA);

        // the exception's message (request data) is in the log, never in the queue or the admin API
        assertThat(listed.text()).doesNotContain(requestData);
        assertThat(jdbc.queryForList("select coalesce(cause_message, '') || coalesce(convert_from(diagnostics, 'UTF8'), '') "
                + "from dead_letter_entry", String.class)).hasSize(2).noneMatch(stored -> stored.contains(requestData));
        assertThat(Files.readString(Path.of(EndToEndTestBase.LOG_FILE), StandardCharsets.UTF_8)).contains(requestData);

        assertThat(client.prometheusCounter("payments_dead_letters_sessions", "processing_group=\"" + GROUP + "\""))
                .isEqualTo(1.0);
        assertThat(client.prometheusCounter("payments_dead_letters_events", "processing_group=\"" + GROUP + "\""))
                .isEqualTo(2.0);
        assertThat(client.prometheusCounter("payments_dead_letters_parked_total", "processing_group=\"" + GROUP + "\""))
                .isEqualTo(1.0);

        // still failing: a retry handles nothing and leaves both parked (one attempt, the operator is waiting)
        Answer failedRetry = client.admin("POST", "/admin/v1/dead-letters/" + GROUP + "/" + sessionA + "/retry");
        assertThat(failedRetry.status()).as(failedRetry.toString()).isEqualTo(200);
        assertThat(failedRetry.body().path("handled").asBoolean()).isFalse();
        assertThat(failedRetry.body().path("still_parked").asLong()).isEqualTo(2);
        assertThat(FaultyStep.failures.get(sessionA + "/0")).hasValue(4);

        // the fault is fixed: the retry handles A's events in their order, and its payment goes on
        FaultyStep.poisonedCustomer = null;
        Answer retry = client.admin("POST", "/admin/v1/dead-letters/" + GROUP + "/" + sessionA + "/retry");
        assertThat(retry.status()).as(retry.toString()).isEqualTo(200);
        assertThat(retry.body().path("handled").asBoolean()).isTrue();
        assertThat(retry.body().path("still_parked").asLong()).isZero();
        assertThat(FaultyStep.handled.get(sessionA)).startsWith(0L, 1L);
        awaitNextAction(partner, sessionA, "confirm");
        ServiceClient.confirm(partner, sessionA);
        await().atMost(WAIT).until(() -> status(partner, sessionA).path("status").asText().equals("accepted"));
        assertThat(FaultyStep.handled.get(sessionA)).as("every event of A once, in order").isSorted()
                .doesNotHaveDuplicates().hasSizeGreaterThan(3);

        // an event of A that the processor queued while the retry ran is released within a second
        // (UnblockedSessionRelease): the queue is empty soon after, not necessarily at this very instant
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThat(group(client.admin("GET", "/admin/v1/dead-letters").body(), GROUP).path("sessions")
                        .asLong()).isZero());
        assertThat(client.prometheusCounter("payments_dead_letters_sessions", "processing_group=\"" + GROUP + "\""))
                .isZero();
        assertThat(FaultyStep.handled.get(sessionA)).as("every event of A once, in order").isSorted()
                .doesNotHaveDuplicates();
        assertThat(client.admin("POST", "/admin/v1/dead-letters/" + GROUP + "/" + sessionA + "/retry").status())
                .as("nothing parked any more").isEqualTo(404);
    }

    @Test
    void anOperatorDropsAParkedSessionWithAReasonThatIsLogged() throws Exception {
        ServiceClient client = new ServiceClient(baseUrl());
        TestPartner partner = client.register(new TestPartner("drop-" + UUID.randomUUID().toString().substring(0, 8)),
                WebhookReceiver.url(WebhookReceiver.freePort(), "drop"));
        String poisoned = "poisoned-" + UUID.randomUUID();
        FaultyStep.poisonedCustomer = poisoned;
        String session = createAndStartPayment(partner, poisoned);
        String path = "/admin/v1/dead-letters/" + GROUP + "/" + session;
        await().atMost(WAIT).until(() -> client.admin("GET", path).status() == 200
                && client.admin("GET", path).body().path("session").path("events").size() == 2);

        assertThat(client.admin("POST", path + "/drop", null, null).status()).as("no admin token").isEqualTo(401);
        Answer noReason = client.admin("POST", path + "/drop", "{}", TestServiceProperties.ADMIN_TOKEN);
        assertThat(noReason.status()).isEqualTo(400);
        assertThat(noReason.errorCode()).isEqualTo("invalid_request");
        Answer cardInReason = client.admin("POST", path + "/drop",
                "{\"reason\":\"card 4242 4242 4242 4242 was wrong\"}", TestServiceProperties.ADMIN_TOKEN);
        assertThat(cardInReason.status()).isEqualTo(400);
        assertThat(client.admin("GET", "/admin/v1/dead-letters/no-such-group").status()).isEqualTo(404);
        assertThat(client.admin("GET", "/admin/v1/dead-letters/" + GROUP + "/bad%20id").status()).isEqualTo(400);

        // a ticket unique to this run, in letters: a random UUID's digits and hyphens sometimes make a run of 12 or
        // more, which the operator's note refuses as a possible card number
        String ticket = UUID.randomUUID().toString().chars()
                .map(c -> Character.isDigit(c) ? 'g' + (c - '0') : c == '-' ? 'x' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        String reason = "duplicate of a session the partner re-created, ticket OPS-" + ticket;
        Answer dropped = client.admin("POST", path + "/drop", JsonNodeFactory.instance.objectNode()
                .put("reason", reason).toString(), TestServiceProperties.ADMIN_TOKEN);
        assertThat(dropped.status()).as(dropped.toString()).isEqualTo(200);
        assertThat(dropped.body().path("dropped").asInt()).isEqualTo(2);
        assertThat(client.admin("GET", path).status()).isEqualTo(404);
        assertThat(Files.readString(Path.of(EndToEndTestBase.LOG_FILE), StandardCharsets.UTF_8))
                .contains("dropped 2 parked events of " + session + " in " + GROUP).contains(reason);
        assertThat(client.admin("GET", "/admin/v1/dead-letters/" + GROUP).body().path("sessions").findValuesAsText("session_id"))
                .doesNotContain(session);
    }

    @Test
    void eventsParkedBehindNothingAreHandledWithoutAnOperator() {
        ServiceClient client = new ServiceClient(baseUrl());
        TestPartner partner = client.register(new TestPartner("follow-" + UUID.randomUUID().toString().substring(0, 8)),
                WebhookReceiver.url(WebhookReceiver.freePort(), "follow"));
        String session = initPayment(partner, "customer-follow");
        awaitNextAction(partner, session, "confirm");
        // what a retry racing with the processor leaves: an event queued behind events the retry has since handled
        DomainEventMessage<?> started = eventStore.readEvents(session).asStream()
                .filter(event -> event.getSequenceNumber() == 1).findFirst().orElseThrow();
        SequencedDeadLetterQueue<EventMessage<?>> queue = processing.deadLetterQueue(GROUP).orElseThrow();
        queue.enqueue(session, new GenericDeadLetter<>(session, started));
        assertThat(FaultyStep.handled.get(session)).containsOnlyOnce(1L);

        await().atMost(Duration.ofSeconds(10)).until(() -> !queue.contains(session));
        assertThat(FaultyStep.handled.get(session)).as("handled again from the queue, no operator involved")
                .filteredOn(sequence -> sequence == 1L).hasSize(2);
    }

    private String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    private static String initPayment(TestPartner partner, String customer) {
        ObjectNode body = EndToEndTestBase.cardPayment("4242424242424242", "123");
        body.putObject("customer").put("reference", customer);
        Answer init = partner.post("/api/v1/session/init/payment", body);
        assertThat(init.status()).as(init.toString()).isEqualTo(200);
        return init.session().path("id").asText();
    }

    /** {@code session/create} with the payment's data (the customer in the created event), then {@code start/payment}. */
    private static String createAndStartPayment(TestPartner partner, String customer) {
        ObjectNode body = EndToEndTestBase.cardPayment("4242424242424242", "123");
        body.putObject("customer").put("reference", customer);
        Answer create = partner.post("/api/v1/session/create", body);
        assertThat(create.status()).as(create.toString()).isEqualTo(200);
        String sessionId = create.session().path("id").asText();
        Answer start = partner.post("/api/v1/session/start/payment", ServiceClient.sessionRef(sessionId));
        assertThat(start.status()).as(start.toString()).isEqualTo(200);
        return sessionId;
    }

    private static void awaitNextAction(TestPartner partner, String sessionId, String action) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50))
                .until(() -> action.equals(status(partner, sessionId).path("next_action").asText()));
    }

    private static JsonNode status(TestPartner partner, String sessionId) {
        Answer answer = partner.post("/api/v1/session/status", ServiceClient.sessionRef(sessionId));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.session();
    }

    private static JsonNode group(JsonNode summary, String name) {
        for (JsonNode group : summary.path("processing_groups")) {
            if (group.path("name").asText().equals(name)) {
                return group;
            }
        }
        throw new AssertionError("no processing group " + name + " in " + summary);
    }
}
