package io.paysession.benchmark;

import io.paysession.benchmark.DatabaseProbe.Snapshot;
import io.paysession.benchmark.LoadGenerator.Window;

import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * One run: start the service (and, if asked, a PostgreSQL for it) or drive one already running
 * ({@code --base-url}), register partners, measure the ceilings, run the load with a warm-up and a measured window,
 * drain, stop what was started, report.
 */
final class Benchmark {

    /** What a run gives: the report as printed, its figures by name, and where its files are. */
    record Outcome(long completed, long failures, String report, Map<String, Object> figures, Path workDir) {
        boolean passed() {
            return completed > 0 && failures == 0;
        }
    }

    /** CPU seconds and counters at one moment; NaN where unknown. */
    private record Usage(double service, double postgres, double generator, double machine, long webhooks, long nanos) {
        /** The service's CPU is the sum over the nodes started here; NaN for a service running elsewhere. */
        static Usage now(List<ServiceProcess> nodes, OptionalLong postgresPid, WebhookReceiver webhooks) {
            double service = nodes.isEmpty() ? Double.NaN : 0;
            for (ServiceProcess node : nodes) {
                service += value(ProcStats.cpuSeconds(node.pid()));
            }
            return new Usage(service,
                    postgresPid.isPresent() ? value(ProcStats.treeCpuSeconds(postgresPid.getAsLong())) : Double.NaN,
                    value(ProcStats.cpuSeconds(ProcessHandle.current().pid())),
                    value(ProcStats.machineBusySeconds()),
                    webhooks.received.sum(),
                    System.nanoTime());
        }

        private static double value(OptionalDouble optional) {
            return optional.isPresent() ? optional.getAsDouble() : Double.NaN;
        }
    }

    private final BenchmarkOptions options;
    private final PrintStream out;

    Benchmark(BenchmarkOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    Outcome run() throws IOException, SQLException, InterruptedException {
        Path workDir = options.workDir().isPresent()
                ? Files.createDirectories(options.workDir().get())
                : Files.createTempDirectory("payments-benchmark-");
        progress("work directory " + workDir);
        if (options.drivesRunningService()) {
            return runAgainstRunningService(workDir);
        }
        ExternalPostgres external = null;
        ServiceProcess service = null;
        List<ServiceProcess> nodes = new ArrayList<>();
        try {
            if (options.startsExternalPostgres()) {
                progress("starting a PostgreSQL for the service to use as an external database");
                external = ExternalPostgres.start(workDir.resolve("external-postgres"));
            }
            ExternalPostgres startedHere = external;
            Optional<String> dbUrl = options.dbUrl().or(() -> Optional.ofNullable(startedHere).map(ExternalPostgres::jdbcUrl));
            String adminToken = randomHex(24);
            HttpClient http = ServiceClient.newHttpClient();
            try (WebhookReceiver webhooks = new WebhookReceiver(Math.max(4, Math.min(32, options.concurrency())))) {
                if (options.preload() > 0) {
                    progress("preloading " + options.preload() + " finished sessions into the empty store");
                    progress(ServiceProcess.preload(options, workDir, dbUrl));
                }
                progress("starting the service" + (options.nodes() > 1 ? " (" + options.nodes() + " nodes)" : ""));
                long startedAt = System.nanoTime();
                Optional<String> vaultKey = options.nodes() > 1 ? Optional.of(randomBase64(32)) : Optional.empty();
                service = ServiceProcess.start(options, workDir, adminToken, dbUrl, 1, vaultKey);
                nodes.add(service);
                webhooks.trustServiceKey(service.awaitReady(http, options.serviceStartTimeout()));
                // the first node has migrated the schema and made the service key; the others start together
                for (int node = 2; node <= options.nodes(); node++) {
                    nodes.add(ServiceProcess.start(options, workDir, adminToken, dbUrl, node, vaultKey));
                }
                for (ServiceProcess node : nodes.subList(1, nodes.size())) {
                    node.awaitReady(http, options.serviceStartTimeout());
                }
                double startSeconds = (System.nanoTime() - startedAt) / 1e9;
                progress(String.format(Locale.ROOT, "service ready after %.1f s (pids %s, %s)", startSeconds,
                        nodes.stream().map(node -> String.valueOf(node.pid())).toList(), service.launchedFrom()));
                ServiceProcess running = service;
                String probeUrl = dbUrl.orElseGet(() -> "jdbc:postgresql://127.0.0.1:" + running.embeddedPostgresPort()
                        .orElseThrow(() -> new IllegalStateException("no postmaster.pid in the service's data directory"))
                        + "/postgres");
                OptionalLong postgresPid = external != null ? external.pid()
                        : options.dbUrl().isPresent() ? OptionalLong.empty() : service.embeddedPostgresPid();
                String probePassword = dbUrl.isPresent() ? options.dbPassword() : running.embeddedPostgresPassword();
                String database = options.dbUrl().isPresent() ? "external PostgreSQL given by --db-url"
                        : external != null ? "external PostgreSQL started by the benchmark, given to the service by URL"
                        : "embedded PostgreSQL started by the service (its default)";
                String serviceLine = service.launchedFrom() + ", ready after "
                        + String.format(Locale.ROOT, "%.1f s", startSeconds)
                        + (nodes.size() > 1 ? ", " + nodes.size() + " nodes on one database, requests sent to them in "
                        + "turn (cpu and memory figures are their sums)" : "");
                try (DatabaseProbe probe = new DatabaseProbe(probeUrl, options.dbUser(), probePassword)) {
                    return measure(workDir, nodes, nodes.stream().map(ServiceProcess::baseUrl).toList(), webhooks,
                            Optional.of(probe), database, postgresPid, http, adminToken, serviceLine,
                            Optional.of(service.log()));
                }
            }
        } finally {
            if (!nodes.isEmpty()) {
                progress("stopping the service");
                nodes.forEach(ServiceProcess::close);
            }
            if (external != null) {
                external.close();
            }
            if (!options.keepData()) {
                deleteRecursively(workDir.resolve("service-data"));
            }
        }
    }

    /**
     * {@code --base-url}: a service running elsewhere (docker compose, a staging cluster), its nodes given by URL.
     * Its CPU and memory are not measured here; its database is read for the database figures when {@code --db-url}
     * names it.
     */
    private Outcome runAgainstRunningService(Path workDir) throws IOException, SQLException, InterruptedException {
        List<String> urls = options.baseUrls();
        HttpClient http = ServiceClient.newHttpClient();
        ServiceClient client = new ServiceClient(http, urls, options.adminToken().orElseThrow());
        try (WebhookReceiver webhooks = new WebhookReceiver(Math.max(4, Math.min(32, options.concurrency())),
                options.webhookHost())) {
            progress("driving the service running at " + String.join(", ", urls));
            String publicKey = null;
            for (String url : urls) {
                String nodeKey = client.servicePublicKey(url);
                if (publicKey != null && !publicKey.equals(nodeKey)) {
                    throw new IllegalStateException(url + " publishes another service key than " + urls.get(0)
                            + ": these are not nodes of one service");
                }
                publicKey = nodeKey;
            }
            webhooks.trustServiceKey(publicKey);
            String serviceLine = "already running at " + String.join(", ", urls) + " (--base-url"
                    + (urls.size() > 1 ? ", requests sent to the nodes in turn" : "") + "; its cpu and memory are "
                    + "not measured here), webhooks received at " + webhooks.url("<project>");
            if (options.dbUrl().isEmpty()) {
                return measure(workDir, List.of(), urls, webhooks, Optional.empty(), "not read (no --db-url)",
                        OptionalLong.empty(), http, options.adminToken().orElseThrow(), serviceLine, Optional.empty());
            }
            try (DatabaseProbe probe = new DatabaseProbe(options.dbUrl().get(), options.dbUser(), options.dbPassword())) {
                return measure(workDir, List.of(), urls, webhooks, Optional.of(probe),
                        "the running service's PostgreSQL, read by --db-url", OptionalLong.empty(), http,
                        options.adminToken().orElseThrow(), serviceLine, Optional.empty());
            }
        }
    }

    private Outcome measure(Path workDir, List<ServiceProcess> nodes, List<String> urls, WebhookReceiver webhooks,
                            Optional<DatabaseProbe> probe, String database, OptionalLong postgresPid, HttpClient http,
                            String adminToken, String serviceLine, Optional<Path> serviceLog)
            throws IOException, SQLException, InterruptedException {
        ServiceClient client = new ServiceClient(http, urls, adminToken);
        String run = randomHex(3);
        List<Partner> partners = new ArrayList<>();
        for (int i = 1; i <= options.partners(); i++) {
            Partner partner = new Partner("bench-" + run + "-" + i);
            client.register(partner, webhooks.url(partner.project()));
            partners.add(partner);
        }
        progress(partners.size() + " partners registered, each with its own RSA-2048 key");

        progress("measuring the ceilings (" + options.ceilingTime().toMillis() + " ms each, after a warm-up)");
        Ceilings.Rate signRate = Ceilings.rsaSignaturesPerSecond(options.ceilingTime());
        Ceilings.Rate verifyRate = Ceilings.rsaVerificationsPerSecond(options.ceilingTime());
        double signs = signRate.perCpuSecond();
        double verifies = verifyRate.perCpuSecond();
        int insertConnections = Math.min(16, options.concurrency());
        double inserts = Double.NaN;
        double insertsConcurrent = Double.NaN;
        if (probe.isPresent()) {
            inserts = Ceilings.committedInsertsPerSecond(probe.get(), 1, options.ceilingTime());
            insertsConcurrent = Ceilings.committedInsertsPerSecond(probe.get(), insertConnections, options.ceilingTime());
        }

        Failures failures = new Failures();
        LoadGenerator load = new LoadGenerator(client, webhooks, partners, options, failures);
        progress("load: " + options.concurrency() + " users, warm-up " + options.warmup().toSeconds() + " s, window "
                + options.duration().toSeconds() + " s or " + options.maxLifecycles() + " lifecycles");
        load.start();
        Thread.sleep(options.warmup().toMillis());
        Usage u0 = Usage.now(nodes, postgresPid, webhooks);
        Optional<Snapshot> s0 = probe.isPresent() ? Optional.of(probe.get().snapshot()) : Optional.empty();
        Window window = load.openWindow();
        long windowEnd = u0.nanos() + options.duration().toNanos();
        long now;
        while ((now = System.nanoTime()) < windowEnd && window.completed.sum() < options.maxLifecycles()) {
            Thread.sleep(Math.max(1, Math.min(100, (windowEnd - now) / 1_000_000)));
        }
        load.closeWindow();
        Optional<Snapshot> s1 = probe.isPresent() ? Optional.of(probe.get().snapshot()) : Optional.empty();
        Usage u1 = Usage.now(nodes, postgresPid, webhooks);
        progress("window closed; waiting for the lifecycles in flight");
        if (!load.drain(options.webhookTimeout().multipliedBy(2).plus(Duration.ofSeconds(40)))) {
            failures.add("lifecycles still running when the drain time ended");
        }
        failures.add("webhooks with an invalid X-PARTNER-SIGN", webhooks.invalidSignatures.sum());
        failures.add("duplicate or late webhooks", webhooks.duplicates.sum());
        failures.add("webhooks of an unexpected type", webhooks.unexpected.sum());
        failures.add("webhooks that are not JSON", webhooks.unreadable.sum());
        OptionalLong peakKiB = OptionalLong.empty();
        for (ServiceProcess node : nodes) {
            OptionalLong nodePeak = ProcStats.peakResidentKiB(node.pid());
            if (nodePeak.isPresent()) {
                peakKiB = OptionalLong.of(peakKiB.orElse(0) + nodePeak.getAsLong());
            }
        }
        // none in PostgreSQL's event table while lifecycles completed: the events are elsewhere (Axon Server)
        long appended = probe.isPresent() ? probe.get().eventsAppendedBetween(s0.get(), s1.get()) : 0;
        double events = appended > 0 ? appended : Double.NaN;
        double writingTransactions = probe.isPresent()
                ? DatabaseProbe.writingTransactionsBetween(s0.get(), s1.get()) : Double.NaN;
        double walBytes = probe.isPresent() ? s1.get().walLsnBytes() - s0.get().walLsnBytes() : Double.NaN;

        ReportWriter report = new ReportWriter();
        double seconds = (u1.nanos() - u0.nanos()) / 1e9;
        long completed = window.completed.sum();
        double rate = completed / seconds;
        int cores = Runtime.getRuntime().availableProcessors();

        report.raw("== Payment lifecycle benchmark ==");
        report.section("machine and set-up");
        report.line("machine", cores + " cores (nproc), " + ProcStats.cpuModel() + ", "
                + ProcStats.memoryTotalKiB().stream().mapToObj(kib -> String.format(Locale.ROOT, "%.1f GiB", kib / 1048576.0))
                .findFirst().orElse("memory n/a")
                + ", Java " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vm.vendor") + ")"
                + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version"));
        report.line("database", database + (probe.isEmpty() ? ": the database figures are n/a"
                : ", PostgreSQL " + probe.get().serverVersion() + ", fsync=" + probe.get().setting("fsync")
                + ", synchronous_commit=" + probe.get().setting("synchronous_commit")));
        report.line("sandbox card rail latency", options.railLatency().map(l -> l + " (--rail-latency)")
                .orElse(options.drivesRunningService() ? "the running service's own"
                        : "the service's default (payments.sandbox.card-latency-min/max not overridden)"));
        report.line("service", serviceLine);
        report.line("load", options.concurrency() + " virtual users, " + options.partners() + " partners, lifecycle = "
                + "init/payment, ready_to_confirm, confirm, payment_finished" + (options.statusCheck() ? ", status" : ""));
        report.line("measured window", String.format(Locale.ROOT, "%.1f s after a %d s warm-up", seconds,
                options.warmup().toSeconds()));

        report.section("throughput");
        report.number("lifecycles completed", completed, 0, "");
        report.number("lifecycles per second", rate, 2, "");
        report.number("events appended per second", events / seconds, 1, "");
        report.number("events per lifecycle", (double) events / completed, 2, "");

        report.section("latency (closed loop, as the partner sees it)");
        report.latency("http session/init/payment", window.init, true);
        report.latency("http session/confirm", window.confirm, true);
        if (options.statusCheck()) {
            report.latency("http session/status", window.status, true);
        }
        report.latency("init answered to ready_to_confirm received", window.initToReady, false);
        report.latency("confirm sent to payment_finished received", window.confirmToFinished, false);
        report.latency("whole lifecycle (init sent to payment_finished received)", window.lifecycle, false);
        List<DatabaseProbe.Stage> stages = probe.isPresent()
                ? probe.get().stagesOfSessionsStartedBetween(s0.get(), s1.get()) : List.of();
        if (!stages.isEmpty()) {
            report.raw("inside the service (from its event and outbox tables; p50 / p99 ms):");
            stages.forEach(stage -> report.raw(String.format(Locale.ROOT, "  %-71s %8.1f %8.1f  (n=%d)",
                    stage.name(), stage.p50(), stage.p99(), stage.count())));
            report.figures().put("inside the service", stages);
        }

        report.section("resources (over the measured window)");
        report.number("service peak memory (VmHWM, whole run)", peakKiB.isPresent() ? peakKiB.getAsLong() / 1024.0 : Double.NaN, 0, "MiB");
        double serviceCpu = u1.service() - u0.service();
        double postgresCpu = u1.postgres() - u0.postgres();
        double generatorCpu = u1.generator() - u0.generator();
        // with --base-url the service's own use is among the other processes when it runs on this machine
        double otherCpu = (u1.machine() - u0.machine()) - (Double.isNaN(serviceCpu) ? 0 : serviceCpu)
                - (Double.isNaN(postgresCpu) ? 0 : postgresCpu) - generatorCpu;
        report.number("service cpu seconds per lifecycle", serviceCpu / completed, 4, "s");
        report.number("postgresql cpu seconds per lifecycle", postgresCpu / completed, 4, "s");
        report.number("load generator cpu seconds per lifecycle", generatorCpu / completed, 4, "s");
        report.number("service cpu use", serviceCpu / seconds, 2, "cores");
        report.number("postgresql cpu use", postgresCpu / seconds, 2, "cores");
        report.number("load generator cpu use", generatorCpu / seconds, 2, "cores");
        report.number("other processes' cpu use (shared machine)", otherCpu / seconds, 2, "cores");

        report.section("ceilings (same run, same machine)");
        report.number("rsa-2048 signatures per second per core", signs, 0, "");
        report.number("rsa-2048 verifications per second per core", verifies, 0, "");
        report.number("rsa-2048 signatures per wall-clock second of one thread", signRate.perWallSecond(), 0, "");
        report.number("rsa-2048 verifications per wall-clock second of one thread", verifyRate.perWallSecond(), 0, "");
        report.number("postgresql single-row committed inserts per second (1 connection)", inserts, 0, "");
        report.number("postgresql single-row committed inserts per second (" + insertConnections + " connections)", insertsConcurrent, 0, "");

        double k = (double) window.signedRequests.sum() / completed;
        double m = (double) (u1.webhooks() - u0.webhooks()) / completed;
        double j = writingTransactions / completed;
        report.section("cost of one lifecycle (measured in the window)");
        report.number("signed requests verified by the service (k)", k, 2, "");
        report.number("webhooks signed by the service (m)", m, 2, "");
        report.number("writing transactions committed (j)", j, 2, "");
        report.number("wal bytes", walBytes / completed, 0, "");

        double rsaService = cores / (k / verifies + m / signs);
        double rsaWithGenerator = cores / ((k + m) / signs + (k + m) / verifies);
        double databaseCeiling = inserts / j;
        double binding = Double.isNaN(databaseCeiling) ? rsaService : Math.min(rsaService, databaseCeiling);
        report.section("implied ceilings (lifecycles per second)");
        report.number("ceiling by rsa, service alone on " + cores + " cores", rsaService, 1, "");
        report.number("ceiling by rsa, service and load generator sharing them", rsaWithGenerator, 1, "");
        report.number("ceiling by committed inserts (1 connection)", databaseCeiling, 1, "");
        report.number("lifecycle rate / lowest service ceiling", rate / binding, 3, "");
        report.line("lowest service ceiling", binding == rsaService ? "rsa" : "committed inserts");
        // not a machine limit but the run's own cost: where the cores would run out at this cost per lifecycle
        double ownCpu = (serviceCpu + (Double.isNaN(postgresCpu) ? 0 : postgresCpu)) / completed;
        report.number("ceiling by measured cpu cost of service and postgresql", cores / ownCpu, 1, "");
        report.number("ceiling by measured cpu cost of service, postgresql and load generator",
                cores / (ownCpu + generatorCpu / completed), 1, "");

        report.section("failures");
        long failed = failures.total();
        report.number("failures", failed, 0, "");
        failures.byKind().forEach((kind, count) -> report.raw("  " + count + " x " + kind));
        if (failed > 0 || completed == 0) {
            report.raw("");
            report.raw("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
            report.raw("!!! THIS RUN HAD " + failed + " FAILURES" + (completed == 0 ? " AND COMPLETED NO LIFECYCLE" : "")
                    + ": its figures do not describe a healthy service");
            report.raw("!!! service log: " + serviceLog.map(Path::toString).orElse("the running service's own"));
            report.raw("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
        }
        report.raw("");
        report.raw("files: " + serviceLog.map(log -> log + ", ").orElse("") + workDir.resolve("result.json"));

        Map<String, Object> figures = report.figures();
        figures.put("failures by kind", failures.byKind());
        ServiceClient.JSON.writerWithDefaultPrettyPrinter().writeValue(workDir.resolve("result.json").toFile(), figures);
        out.println(report.text());
        return new Outcome(completed, failed, report.text(), figures, workDir);
    }

    private void progress(String message) {
        out.println("[benchmark] " + message);
    }

    private static String randomBase64(int bytes) {
        byte[] random = new byte[bytes];
        new SecureRandom().nextBytes(random);
        return Base64.getEncoder().encodeToString(random);
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
