package io.paysession.gateway.erasure;

import io.paysession.api.wire.PaymentJson;
import io.paysession.command.erasure.JdbcSessionKeys;
import io.paysession.command.erasure.PersonalDataSerializer;
import io.paysession.command.erasure.SessionKeys;
import io.paysession.command.vault.VaultKeyRing;
import org.axonframework.serialization.Serializer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Clock;
import java.time.Duration;

/**
 * The event serializer of the whole service: Axon's Jackson serializer with personal data encrypted under the
 * session's data key (docs/erasure.md). The event store, the dead-letter queues and every reader of stored events
 * (the audit, the replays, the command line) take this bean by its qualifier; tokens and metadata keep the general
 * serializer.
 */
@Configuration
public class ErasureConfiguration {

    /** How long a node keeps a data key it read: the time an erasure waits before it derives everything again. */
    public static final String KEY_CACHE_TIME = "${payments.erasure.key-cache-time:5s}";

    @Bean
    SessionKeys sessionKeys(JdbcTemplate jdbc, VaultKeyRing vault, Clock clock,
                            @Value(KEY_CACHE_TIME) Duration cacheTime) {
        return new JdbcSessionKeys(jdbc, vault, clock, cacheTime);
    }

    @Bean
    @Qualifier("eventSerializer")
    Serializer eventSerializer(Serializer serializer, SessionKeys keys) {
        return new PersonalDataSerializer(serializer, PaymentJson.newObjectMapper(), keys);
    }
}
