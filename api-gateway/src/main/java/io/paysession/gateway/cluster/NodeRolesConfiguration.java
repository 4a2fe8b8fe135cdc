package io.paysession.gateway.cluster;

import com.github.kagkarlsson.scheduler.boot.config.DbSchedulerStarter;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.node.NodeRoles;
import io.paysession.gateway.http.ApiResponses;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code payments.roles} changes in the application itself (the modules' own parts carry their conditions:
 * the payment processes and rail recovery with {@code processes}, the reconciliation projection with
 * {@code projections}; webhook sending follows {@code webhooks} through {@link NodeRolesDefaults}).
 */
@Configuration
public class NodeRolesConfiguration {

    private static final Logger log = LoggerFactory.getLogger(NodeRolesConfiguration.class);

    /** This node's roles, read (and checked) once. */
    public record ThisNode(Set<String> roles) {

        public boolean runs(String role) {
            return roles.contains(role);
        }

        /** The roles in a stable order, for the start-up report. */
        public String describe() {
            return roles.size() == NodeRoles.EVERY_ROLE.size() ? "all (" + String.join(", ", new TreeSet<>(roles)) + ")"
                    : String.join(", ", new TreeSet<>(roles));
        }
    }

    @Bean
    ThisNode thisNode(@Value("${" + NodeRoles.PROPERTY + ":" + NodeRoles.ALL + "}") String roles) {
        return new ThisNode(NodeRoles.parse(roles));
    }

    /**
     * Without {@code processes} no deadline and no recurring task runs here: the scheduler still writes the deadlines
     * this node's commands set, and the nodes that run processes fire them.
     */
    @Bean
    @ConditionalOnExpression(NodeRoles.WITHOUT_PROCESSES)
    DbSchedulerStarter schedulerNotStarted() {
        return () -> log.info("Deadlines and recurring tasks are run by the nodes with the processes role, not here");
    }

    @Bean
    @ConditionalOnExpression(NodeRoles.WITHOUT_API)
    OnlyOperationalEndpoints onlyOperationalEndpoints() {
        return new OnlyOperationalEndpoints();
    }

    /**
     * A node without {@code api} serves no partner, payer or widget path: only {@code /actuator/*} (health for the
     * orchestrator, metrics) and the operator's {@code /admin/*} (behind the admin token, as on every node), so that an
     * operator reaches the node that runs a processor (its dead letters are retried where it runs). Anything else is
     * 404, as an unknown path is.
     */
    @Order(Ordered.HIGHEST_PRECEDENCE)
    static class OnlyOperationalEndpoints extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            String path = request.getRequestURI();
            if (path.equals("/actuator") || path.startsWith("/actuator/") || path.startsWith("/admin/")) {
                chain.doFilter(request, response);
                return;
            }
            ApiResponses.writeError(response, 404, ErrorCode.INVALID_REQUEST,
                    "This node does not serve the API (payments.roles); send requests to an API node");
        }
    }
}
