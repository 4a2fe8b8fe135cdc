package io.paysession.gateway;

import io.axoniq.axonserver.grpc.control.ClientIdentification;
import io.axoniq.axonserver.grpc.event.Event;
import io.paysession.api.eventstore.EventPositions;
import io.paysession.api.eventstore.axon.TrackingTokenPositions;
import io.paysession.gateway.infra.EmbeddedPostgresServer;
import io.paysession.gateway.support.FakeAxonServer;
import io.paysession.gateway.support.TestServiceProperties;
import io.paysession.query.audit.StoredEvents;
import io.paysession.query.eventstore.axon.AxonStoredEvents;
import io.paysession.query.eventstore.axon.AxonWalletBalances;
import io.paysession.query.settlement.WalletBalances;
import org.axonframework.axonserver.connector.command.AxonServerCommandBus;
import org.axonframework.axonserver.connector.event.axon.AxonServerEventStore;
import org.axonframework.axonserver.connector.query.AxonServerQueryBus;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.dbscheduler.DbSchedulerDeadlineManager;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.queryhandling.QueryBus;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The service in the {@code axonserver} profile against a fake Axon Server ({@link FakeAxonServer}, a gRPC endpoint
 * that only connects clients and takes appends): the connector is on and wired where the events, commands and
 * queries go, the JDBC event store is not built, tokens and deadlines stay in PostgreSQL, the event store's ports
 * use Axon's API only, and an event the service stores goes to Axon Server, not to PostgreSQL's event table. Whether
 * the service works against a real Axon Server is not shown here (docs/scaling.md).
 */
class AxonServerProfileTest extends EndToEndTestBase {

    @Autowired
    private EmbeddedPostgresServer postgres;

    @Autowired
    private JdbcTemplate sharedDatabase;

    @Test
    void theConnectorHoldsTheEventsAndTheBusesWhilePostgresKeepsTokensAndDeadlines() {
        String database = "axonserver_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(6));
        sharedDatabase.execute("create database " + database);
        String url = postgres.jdbcUrl().replace("/postgres?", "/" + database + "?");
        try (FakeAxonServer axonServer = new FakeAxonServer();
             ConfigurableApplicationContext service = start(axonServer, url)) {

            assertThat(service.getBean(EventStore.class)).isInstanceOf(AxonServerEventStore.class);
            assertThat(service.getBeansOfType(EventStorageEngine.class)).as("no JDBC storage engine").isEmpty();
            assertThat(service.getBean(CommandBus.class)).isInstanceOf(AxonServerCommandBus.class);
            assertThat(service.getBean(QueryBus.class)).isInstanceOf(AxonServerQueryBus.class);
            assertThat(service.getBean(TokenStore.class)).isInstanceOf(JdbcTokenStore.class);
            assertThat(service.getBean(DeadlineManager.class)).isInstanceOf(DbSchedulerDeadlineManager.class);
            assertThat(service.getBean(EventPositions.class)).isInstanceOf(TrackingTokenPositions.class);
            assertThat(service.getBean(StoredEvents.class)).isInstanceOf(AxonStoredEvents.class);
            assertThat(service.getBean(WalletBalances.class)).isInstanceOf(AxonWalletBalances.class);

            await().atMost(Duration.ofSeconds(30)).until(() -> !axonServer.clients().isEmpty());
            ClientIdentification client = axonServer.clients().get(0);
            assertThat(client.getComponentName()).isEqualTo("payment-session-service");

            service.getBean(EventStore.class).publish(new GenericDomainEventMessage<>("Probe", "probe-1", 0,
                    "stored through the connector"));

            List<Event> appended = axonServer.appended();
            assertThat(appended).singleElement().satisfies(event -> {
                assertThat(event.getAggregateIdentifier()).isEqualTo("probe-1");
                assertThat(event.getAggregateType()).isEqualTo("Probe");
                assertThat(event.getPayload().getData().toStringUtf8()).contains("stored through the connector");
            });
            JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url, "postgres", postgres.password()));
            assertThat(jdbc.queryForObject("select count(*) from domain_event_entry", Long.class))
                    .as("PostgreSQL's event table is left empty").isZero();
        }
    }

    private ConfigurableApplicationContext start(FakeAxonServer axonServer, String url) {
        Map<String, Object> settings = TestServiceProperties.forDataDirectory(
                TestServiceProperties.newDataDirectory("payments-axonserver"));
        settings.put("spring.profiles.active", "axonserver");
        settings.put("AXON_AXONSERVER_SERVERS", "localhost:" + axonServer.port());
        settings.put("PAYMENTS_DB_URL", url);
        settings.put("PAYMENTS_DB_USER", "postgres");
        settings.put("PAYMENTS_DB_PASSWORD", postgres.password());
        settings.put("PAYMENTS_DB_POOL_SIZE", "8");
        return startService(settings);
    }
}
