package io.paysession.gateway.infra;

import picocli.CommandLine.Option;

/**
 * Where the service's database is, for the jar's tools (`audit`, `preload`): a JDBC URL with its user and
 * password, or the data directory of the embedded PostgreSQL. Unset, each falls back to the service's own
 * environment variables ({@code PAYMENTS_DB_URL}, {@code PAYMENTS_DB_USER}, {@code PAYMENTS_DB_PASSWORD},
 * {@code PAYMENTS_DATA_DIR}).
 */
public class DatabaseOptions {
    @Option(names = "--db-url", paramLabel = "<url>", description = "JDBC URL of the service's database")
    public String url;
    @Option(names = "--db-user", paramLabel = "<user>")
    public String user;
    @Option(names = "--db-password", paramLabel = "<password>")
    public String password;
    @Option(names = "--data-dir", paramLabel = "<dir>", description = "the service's data directory")
    public String dataDir;
}
