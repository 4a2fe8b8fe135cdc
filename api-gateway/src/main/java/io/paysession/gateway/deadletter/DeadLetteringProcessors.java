package io.paysession.gateway.deadletter;

import io.paysession.command.process.PaymentProcess;
import io.paysession.query.settlement.SettlementProjection;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.config.EventProcessingConfigurer;
import org.axonframework.eventhandling.deadletter.jdbc.DeadLetterSchema;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcSequencedDeadLetterQueue;
import org.axonframework.serialization.Serializer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

import java.time.Clock;
import java.util.List;

/**
 * Poison events: each streaming processor parks an event that keeps failing in a sequenced dead-letter
 * queue of its own (Axon's, on JDBC, table {@code dead_letter_entry}), with every later event of the same
 * session (the default sequencing, by aggregate), and goes on with the other sessions of its segment.
 * Before that, a failing event is tried {@code payments.dead-letters.attempts} times, each in a savepoint.
 * The subscribing projections (the session views, the webhook outbox, ...) are not here: they run in the command's
 * transaction, whose caller sees the failure.
 */
@Configuration
@EnableConfigurationProperties(DeadLetterProperties.class)
public class DeadLetteringProcessors {

    /** The streaming processors that park poison events. */
    public static final List<String> GROUPS = List.of(PaymentProcess.PROCESSING_GROUP,
            SettlementProjection.PROCESSING_GROUP);

    @Bean
    DeadLetterSchema deadLetterSchema() {
        return DeadLetterSchema.builder()
                .deadLetterTable("dead_letter_entry")
                .deadLetterIdentifierColumn("dead_letter_id")
                .processingGroupColumn("processing_group")
                .sequenceIdentifierColumn("sequence_identifier")
                .sequenceIndexColumn("sequence_index")
                .messageTypeColumn("message_type")
                .eventIdentifierColumn("event_identifier")
                .timestampColumn("time_stamp")
                .payloadTypeColumn("payload_type")
                .payloadRevisionColumn("payload_revision")
                .payloadColumn("payload")
                .metaDataColumn("meta_data")
                .aggregateTypeColumn("aggregate_type")
                .aggregateIdentifierColumn("aggregate_identifier")
                .sequenceNumberColumn("sequence_number")
                .tokenTypeColumn("token_type")
                .tokenColumn("token")
                .enqueuedAtColumn("enqueued_at")
                .lastTouchedColumn("last_touched")
                .processingStartedColumn("processing_started")
                .causeTypeColumn("cause_type")
                .causeMessageColumn("cause_message")
                .diagnosticsColumn("diagnostics")
                .build();
    }

    @Bean
    ConfigurerModule deadLetterQueues(DeadLetterProperties properties, DeadLetterSchema schema,
                                      ConnectionProvider connections, TransactionManager transactionManager,
                                      PlatformTransactionManager platformTransactions, Serializer serializer,
                                      @Qualifier("eventSerializer") Serializer eventSerializer,
                                      DeadLetterMetrics metrics, Clock clock) {
        return configurer -> {
            EventProcessingConfigurer processing = configurer.eventProcessing();
            for (String group : GROUPS) {
                processing
                        .registerDeadLetterQueue(group, configuration -> JdbcSequencedDeadLetterQueue.builder()
                                .processingGroup(group)
                                .connectionProvider(connections)
                                .transactionManager(transactionManager)
                                .schema(schema)
                                .genericSerializer(serializer)
                                .eventSerializer(eventSerializer)
                                .maxSequences(properties.maxSessions())
                                .maxSequenceSize(properties.maxPerSession())
                                .build())
                        .registerDeadLetterPolicy(group, configuration ->
                                new ParkingPolicy(group, properties, metrics, clock))
                        .registerDeadLetteringEventHandlerInvokerConfiguration(group, (configuration, invoker) -> invoker
                                .enableSequenceIdentifierCache()
                                .handlerDefinition(new RetriedInSavepoints(configuration.handlerDefinition(Object.class),
                                        group, properties, platformTransactions)));
            }
        };
    }
}
