package io.paysession.gateway.infra;

import io.paysession.api.session.view.SessionViewCache;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the service keeps in memory so as not to read it again: the sessions as their last committed events left
 * them ({@link SessionViewCache}), shared by the command answers, the session views, the webhook outbox and the
 * settlement projection. Each is bounded; a miss only costs the read it saves.
 */
@Configuration
public class CacheConfiguration {

    @Bean
    SessionViewCache sessionViewCache(@Value("${payments.cache.sessions:10000}") long sessions) {
        return new SessionViewCache(sessions);
    }
}
