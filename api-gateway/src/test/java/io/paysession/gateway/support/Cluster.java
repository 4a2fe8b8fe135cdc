package io.paysession.gateway.support;

import io.paysession.gateway.infra.EmbeddedPostgresServer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Several JVMs of the service on one PostgreSQL, as a provider runs them when one machine is not enough: the
 * embedded PostgreSQL binaries started once, by the test, and given to every node as an external database (the
 * nodes start none of their own), every node with the same vault key and admin token. Each node is a
 * {@link ServiceProcess}: it can be stopped, killed with SIGKILL and started again.
 */
public final class Cluster implements AutoCloseable {

    private final Path root;
    private final EmbeddedPostgresServer postgres;
    private final Map<String, Object> shared = new LinkedHashMap<>();
    private final List<ServiceProcess> nodes = new ArrayList<>();
    private final JdbcTemplate jdbc;

    /** {@code settings} apply to every node, over {@link TestServiceProperties#forDataDirectory}. */
    public Cluster(String name, Map<String, Object> settings) {
        this.root = TestServiceProperties.newDataDirectory(name);
        this.postgres = EmbeddedPostgresServer.start(root.resolve("shared-postgres"), 0, false);
        byte[] vaultKey = new byte[32];
        new SecureRandom().nextBytes(vaultKey);
        shared.put("payments.vault.key", Base64.getEncoder().encodeToString(vaultKey));
        shared.put("payments.db.url", postgres.jdbcUrl());
        shared.put("spring.datasource.url", postgres.jdbcUrl());
        shared.put("spring.datasource.username", "postgres");
        shared.put("spring.datasource.password", postgres.password());
        shared.put("payments.db.pool-size", "12");
        // the production default, not the single-node tests' longer one: a dead node's webhooks wait this long
        shared.put("payments.webhooks.claim-lease", "8s");
        shared.putAll(settings);
        this.jdbc = new JdbcTemplate(new DriverManagerDataSource(postgres.jdbcUrl(), "postgres", postgres.password()));
    }

    /** A node (not started) running {@code roles} ({@code payments.roles}). */
    public ServiceProcess node(String roles) {
        int number = nodes.size() + 1;
        Map<String, Object> properties = new LinkedHashMap<>(shared);
        properties.put("payments.roles", roles);
        // on one machine the nodes share a host name, which db-scheduler names its nodes by by default
        properties.put("db-scheduler.scheduler-name", "node-" + number);
        Path directory = root.resolve(root.getFileName() + "-node-" + number);
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        ServiceProcess node = new ServiceProcess(directory, properties);
        nodes.add(node);
        return node;
    }

    /** Starts {@code first} (it migrates the schema), then the others at the same time. */
    public static void start(ServiceProcess first, ServiceProcess... others) {
        first.start();
        for (ServiceProcess node : others) {
            node.launch();
        }
        for (ServiceProcess node : others) {
            node.awaitStarted();
        }
    }

    /** The shared database, for what a test checks there. */
    public JdbcTemplate jdbc() {
        return jdbc;
    }

    /** The name Axon's token store gives {@code node} in {@code token_entry.owner}. */
    public static String tokenOwner(ServiceProcess node) {
        try {
            return node.pid() + "@" + InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** How many segments of {@code processor} each owner holds (unclaimed ones under {@code null}). */
    public Map<String, Integer> segmentsByOwner(String processor) {
        Map<String, Integer> owners = new LinkedHashMap<>();
        jdbc.query("select owner from token_entry where processor_name = ? order by segment",
                row -> {
                    owners.merge(String.valueOf(row.getString(1)), 1, Integer::sum);
                }, processor);
        return owners;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (ServiceProcess node : nodes) {
            try {
                node.close();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        postgres.close();
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind fails nothing
        }
        if (failure != null) {
            throw failure;
        }
    }
}
