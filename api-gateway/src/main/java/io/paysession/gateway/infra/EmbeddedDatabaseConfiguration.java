package io.paysession.gateway.infra;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

import javax.sql.DataSource;

/**
 * The embedded default: used when no {@code PAYMENTS_DB_URL} is given. With a URL, Spring Boot's own
 * DataSource configuration takes over.
 */
@Configuration
@Conditional(EmbeddedDatabaseConfiguration.NoExternalDatabase.class)
public class EmbeddedDatabaseConfiguration {

    @Bean(destroyMethod = "close")
    EmbeddedPostgresServer embeddedPostgres(DataDirectory dataDirectory,
                                            @Value("${payments.db.embedded-port:0}") int port) {
        return EmbeddedPostgresServer.start(dataDirectory.resolve("postgres"), port);
    }

    @Bean(destroyMethod = "close")
    DataSource dataSource(EmbeddedPostgresServer postgres,
                          @Value("${payments.db.pool-size:40}") int poolSize) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres.jdbcUrl());
        config.setUsername("postgres");
        config.setPassword(postgres.password());
        config.setMaximumPoolSize(poolSize);
        config.setPoolName("embedded-postgres");
        return new HikariDataSource(config);
    }

    static class NoExternalDatabase implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String url = context.getEnvironment().getProperty("payments.db.url");
            return url == null || url.isBlank();
        }
    }
}
