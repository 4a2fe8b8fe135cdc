package io.paysession.benchmark;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the service's database from outside, on its own connection: how many events were appended, how
 * many transactions wrote (PostgreSQL's transaction id counter: an id is taken only by a transaction that
 * writes), and how much WAL was written. The service's tables are only read.
 */
final class DatabaseProbe implements AutoCloseable, Ceilings.Connections {

    /** The database at one moment. */
    record Snapshot(long maxGlobalIndex, long transactionId, long walLsnBytes, long atNanos) {
    }

    private final String url;
    private final String user;
    private final String password;
    private final Connection connection;

    DatabaseProbe(String url, String user, String password) throws SQLException {
        this.url = url;
        this.user = user;
        this.password = password;
        this.connection = open();
    }

    @Override
    public Connection open() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    String serverVersion() throws SQLException {
        return single("show server_version");
    }

    String setting(String name) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("select current_setting(?)")) {
            statement.setString(1, name);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    Snapshot snapshot() throws SQLException {
        long maxIndex = Long.parseLong(single("select coalesce(max(global_index), 0) from domain_event_entry"));
        long xid = Long.parseLong(single("select txid_current()"));
        long lsn = Long.parseLong(single("select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"));
        return new Snapshot(maxIndex, xid, lsn, System.nanoTime());
    }

    /** Events appended after {@code from} up to now (rows, not index values: rolled-back appends leave gaps). */
    long eventsAppendedBetween(Snapshot from, Snapshot to) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "select count(*) from domain_event_entry where global_index > ? and global_index <= ?")) {
            statement.setLong(1, from.maxGlobalIndex());
            statement.setLong(2, to.maxGlobalIndex());
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Transactions that wrote between the two snapshots, less the probe's own {@code txid_current()}. */
    static long writingTransactionsBetween(Snapshot from, Snapshot to) {
        return Math.max(0, to.transactionId() - from.transactionId() - 1);
    }

    /** Median and 99th percentile of one step inside the service, in milliseconds. */
    record Stage(String name, double p50, double p99, long count) {
    }

    /*
     * Where the time of a lifecycle goes inside the service, from its own tables: event time stamps (taken
     * by the aggregate when it decides), and the outbox row's creation and delivery. Only sessions started
     * in the window. Read-only; it depends on the event and outbox schema, so it is a diagnosis, not a figure
     * the benchmark's verdict rests on.
     */
    private static final String STAGES = """
            with started as (
                select aggregate_identifier as session_id from domain_event_entry
                 where global_index > ? and global_index <= ? and payload_type like '%.PaymentStartedEvent'),
            events as (
                select e.aggregate_identifier as session_id,
                       max(e.time_stamp::timestamptz) filter (where e.payload_type like '%.PaymentStartedEvent') as started,
                       max(e.time_stamp::timestamptz) filter (where e.payload_type like '%.PaymentReadyToConfirmEvent') as ready,
                       max(e.time_stamp::timestamptz) filter (where e.payload_type like '%.PaymentConfirmedEvent') as confirmed,
                       max(e.time_stamp::timestamptz) filter (where e.payload_type like '%.PaymentSucceededEvent') as succeeded
                  from domain_event_entry e join started s on s.session_id = e.aggregate_identifier
                 group by e.aggregate_identifier),
            hooks as (
                select n.session_id,
                       max(n.created_at) filter (where n.type = 'ready_to_confirm') as ready_stored,
                       max(n.delivered_at) filter (where n.type = 'ready_to_confirm') as ready_delivered,
                       max(n.created_at) filter (where n.type = 'payment_finished') as finished_stored,
                       max(n.delivered_at) filter (where n.type = 'payment_finished') as finished_delivered
                  from webhook_notification n join started s on s.session_id = n.session_id
                 group by n.session_id),
            steps as (
                select 1 as o, 'payment started -> ready to confirm (process, rail pre-check, command)' as step,
                       extract(epoch from ready - started) * 1000 as ms from events
                union all select 2, 'ready to confirm -> its webhook stored in the outbox', extract(epoch from ready_stored - ready) * 1000
                  from events join hooks using (session_id)
                union all select 3, 'ready_to_confirm stored -> delivered', extract(epoch from ready_delivered - ready_stored) * 1000 from hooks
                union all select 4, 'payment confirmed -> succeeded (process, rail authorization, command)', extract(epoch from succeeded - confirmed) * 1000 from events
                union all select 5, 'succeeded -> payment_finished stored in the outbox', extract(epoch from finished_stored - succeeded) * 1000
                  from events join hooks using (session_id)
                union all select 6, 'payment_finished stored -> delivered', extract(epoch from finished_delivered - finished_stored) * 1000 from hooks)
            select step, percentile_cont(0.5) within group (order by ms), percentile_cont(0.99) within group (order by ms), count(ms)
              from steps where ms is not null group by o, step order by o
            """;

    List<Stage> stagesOfSessionsStartedBetween(Snapshot from, Snapshot to) {
        List<Stage> stages = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(STAGES)) {
            statement.setLong(1, from.maxGlobalIndex());
            statement.setLong(2, to.maxGlobalIndex());
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    stages.add(new Stage(rs.getString(1), rs.getDouble(2), rs.getDouble(3), rs.getLong(4)));
                }
            }
        } catch (SQLException e) {
            // a schema this probe does not know: no diagnosis, the measured figures stand
        }
        return stages;
    }

    private String single(String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
