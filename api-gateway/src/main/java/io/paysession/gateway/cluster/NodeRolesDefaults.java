package io.paysession.gateway.cluster;

import io.paysession.api.node.NodeRoles;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Settings that follow from {@code payments.roles} unless set on their own: a node without {@code webhooks} writes
 * the outbox with its events but sends nothing ({@code payments.webhooks.dispatch=false}); a node without
 * {@code processes} starts no scheduler, so the scheduler's health (DOWN unless started) is not part of its own.
 * Added last, so an explicit setting wins.
 */
public class NodeRolesDefaults implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Set<String> roles = NodeRoles.parse(environment.getProperty(NodeRoles.PROPERTY, NodeRoles.ALL));
        Map<String, Object> defaults = new LinkedHashMap<>();
        if (!roles.contains(NodeRoles.WEBHOOKS)) {
            defaults.put("payments.webhooks.dispatch", "false");
        }
        if (!roles.contains(NodeRoles.PROCESSES)) {
            defaults.put("management.health.db-scheduler.enabled", "false");
        }
        if (!defaults.isEmpty()) {
            environment.getPropertySources().addLast(new MapPropertySource("payments-roles-defaults", defaults));
        }
    }
}
