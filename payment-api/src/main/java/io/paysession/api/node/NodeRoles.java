package io.paysession.api.node;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a node runs, from {@code payments.roles} (a comma-separated list; default {@code all}), so that an operator
 * scales each part apart from one jar:
 * <ul>
 * <li>{@code api}: the partner, payer, widget and admin HTTP endpoints (a node without it answers only
 * {@code /actuator/*});</li>
 * <li>{@code processes}: the payment processes that drive the rails, their recovery, the deadlines and the
 * cluster-wide recurring tasks;</li>
 * <li>{@code projections}: the read models' tracking processors (the reconciliation ledger);</li>
 * <li>{@code webhooks}: sending the outbox.</li>
 * </ul>
 * Every node handles the commands it sends (on PostgreSQL the command bus is local) and runs the projections that
 * live in a command's transaction (the session views, the webhook outbox), whatever its roles.
 */
public final class NodeRoles {

    public static final String PROPERTY = "payments.roles";
    public static final String API = "api";
    public static final String PROCESSES = "processes";
    public static final String PROJECTIONS = "projections";
    public static final String WEBHOOKS = "webhooks";
    public static final String ALL = "all";
    public static final Set<String> EVERY_ROLE = Set.of(API, PROCESSES, PROJECTIONS, WEBHOOKS);

    private static final String VALUE = "'${" + PROPERTY + ":" + ALL + "}'";
    private static final String TEST = "T(io.paysession.api.node.NodeRoles).parse(" + VALUE + ").contains";

    /** For {@code @ConditionalOnExpression}: the node runs the HTTP endpoints. */
    public static final String RUNS_API = "#{" + TEST + "('" + API + "')}";
    /** For {@code @ConditionalOnExpression}: the node runs the payment processes and deadlines. */
    public static final String RUNS_PROCESSES = "#{" + TEST + "('" + PROCESSES + "')}";
    /** For {@code @ConditionalOnExpression}: the node runs the tracking read models. */
    public static final String RUNS_PROJECTIONS = "#{" + TEST + "('" + PROJECTIONS + "')}";
    /** For {@code @ConditionalOnExpression}: the node sends webhooks. */
    public static final String RUNS_WEBHOOKS = "#{" + TEST + "('" + WEBHOOKS + "')}";
    /** For {@code @ConditionalOnExpression}: the node does not run the HTTP endpoints. */
    public static final String WITHOUT_API = "#{!" + TEST + "('" + API + "')}";
    /** For {@code @ConditionalOnExpression}: the node does not run the payment processes and deadlines. */
    public static final String WITHOUT_PROCESSES = "#{!" + TEST + "('" + PROCESSES + "')}";

    private NodeRoles() {
    }

    /**
     * The roles {@code value} names ({@code all}, or some of {@code api}, {@code processes}, {@code projections},
     * {@code webhooks}, in any case, comma-separated). An unknown or empty list is refused, naming the property.
     */
    public static Set<String> parse(String value) {
        Set<String> roles = new LinkedHashSet<>();
        for (String part : (value == null ? "" : value).split(",")) {
            String role = part.trim().toLowerCase(Locale.ROOT);
            if (role.isEmpty()) {
                continue;
            }
            if (role.equals(ALL)) {
                roles.addAll(Arrays.asList(API, PROCESSES, PROJECTIONS, WEBHOOKS));
            } else if (EVERY_ROLE.contains(role)) {
                roles.add(role);
            } else {
                throw new IllegalArgumentException(PROPERTY + ": unknown role '" + part.trim()
                        + "' (known: all, api, processes, projections, webhooks)");
            }
        }
        if (roles.isEmpty()) {
            throw new IllegalArgumentException(PROPERTY + " names no role (known: all, api, processes, projections,"
                    + " webhooks)");
        }
        return Set.copyOf(roles);
    }
}
