package io.paysession.benchmark;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * The machine's own limits, measured in the run: RSA-2048 signatures and verifications per second of one
 * core, and single-row committed inserts per second into the same PostgreSQL. Each is measured after a
 * warm-up of a third of its time, so the JIT has compiled the loop. RSA is counted against the thread's
 * CPU time, so another build on a shared machine slows the count without lowering the figure; inserts
 * wait for the disk, not the CPU, so they are counted against wall-clock time.
 */
final class Ceilings {

    /** The size of a typical webhook body; the hash over it is a small part of an RSA operation. */
    private static final int BODY_BYTES = 1536;

    private Ceilings() {
    }

    static Rate rsaSignaturesPerSecond(Duration time) {
        KeyPair keys = Partner.newKeyPair();
        byte[] body = randomBody();
        return perSecond(time, () -> {
            Signature signature = Signature.getInstance("SHA256withRSA");
            signature.initSign(keys.getPrivate());
            signature.update(body);
            signature.sign();
        });
    }

    static Rate rsaVerificationsPerSecond(Duration time) {
        KeyPair keys = Partner.newKeyPair();
        byte[] body = randomBody();
        byte[] signed;
        try {
            Signature signature = Signature.getInstance("SHA256withRSA");
            signature.initSign(keys.getPrivate());
            signature.update(body);
            signed = signature.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return perSecond(time, () -> {
            Signature verifier = Signature.getInstance("SHA256withRSA");
            verifier.initVerify(keys.getPublic());
            verifier.update(body);
            if (!verifier.verify(signed)) {
                throw new IllegalStateException("a correct signature did not verify");
            }
        });
    }

    interface Connections {
        Connection open() throws SQLException;
    }

    /**
     * Single-row inserts, each its own committed transaction (autocommit), on {@code connections}
     * connections at once, into a scratch table created for this and dropped after. With fsync and
     * synchronous commit on, each commit waits for its WAL flush; with several connections, PostgreSQL's
     * group commit lets one flush cover several commits.
     */
    static double committedInsertsPerSecond(Connections database, int connections, Duration time) throws SQLException {
        String table = "benchmark_scratch_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
        try (Connection admin = database.open(); Statement ddl = admin.createStatement()) {
            ddl.execute("create table " + table + " (id bigint generated always as identity primary key,"
                    + " created_at timestamptz not null default now(), payload text not null)");
            try {
                return insertRate(database, table, connections, time);
            } finally {
                ddl.execute("drop table " + table);
            }
        }
    }

    private static double insertRate(Connections database, String table, int connections, Duration time) throws SQLException {
        List<Connection> open = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                Connection connection = database.open();
                connection.setAutoCommit(true);
                open.add(connection);
            }
            String payload = "x".repeat(200);
            Duration warmup = time.dividedBy(3);
            LongAdder inserted = new LongAdder();
            List<Thread> threads = new ArrayList<>();
            List<SQLException> errors = new ArrayList<>();
            long start = System.nanoTime();
            long measureFrom = start + warmup.toNanos();
            long end = measureFrom + time.toNanos();
            for (Connection connection : open) {
                Thread thread = new Thread(() -> {
                    try (PreparedStatement insert = connection.prepareStatement("insert into " + table + " (payload) values (?)")) {
                        insert.setString(1, payload);
                        long now;
                        while ((now = System.nanoTime()) < end) {
                            insert.executeUpdate();
                            if (now >= measureFrom) {
                                inserted.increment();
                            }
                        }
                    } catch (SQLException e) {
                        synchronized (errors) {
                            errors.add(e);
                        }
                    }
                }, "insert-ceiling");
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            if (!errors.isEmpty()) {
                throw errors.get(0);
            }
            return inserted.sum() / (time.toNanos() / 1e9);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            for (Connection connection : open) {
                connection.close();
            }
        }
    }

    private interface Operation {
        void run() throws GeneralSecurityException;
    }

    /**
     * Operations per second of the measuring thread's own CPU time, which is what one core can do whatever
     * else the machine runs, and per second of wall-clock time, which is what this thread got.
     */
    record Rate(double perCpuSecond, double perWallSecond) {
    }

    private static Rate perSecond(Duration time, Operation operation) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try {
            long warmupEnd = System.nanoTime() + time.dividedBy(3).toNanos();
            while (System.nanoTime() < warmupEnd) {
                operation.run();
            }
            long count = 0;
            long cpuStart = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            long end = start + time.toNanos();
            long now;
            do {
                operation.run();
                count++;
            } while ((now = System.nanoTime()) < end);
            long cpu = threads.getCurrentThreadCpuTime() - cpuStart;
            return new Rate(cpu > 0 ? count / (cpu / 1e9) : Double.NaN, count / ((now - start) / 1e9));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] randomBody() {
        byte[] body = new byte[BODY_BYTES];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + ThreadLocalRandom.current().nextInt(26));
        }
        return body;
    }
}
