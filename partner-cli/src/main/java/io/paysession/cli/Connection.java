package io.paysession.cli;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.Optional;
import java.util.Properties;

/**
 * Where the service is and who the partner is: each setting from its flag, else the environment, else the chosen
 * profile of the configuration file, else the default that fits the README's first day (the service started on
 * this machine, the demo partner and the key it wrote into {@code data/demo-partner/}).
 */
final class Connection {

    static final String DEFAULT_BASE_URL = "http://localhost:8080";
    static final String DEFAULT_PROJECT = "demo";
    static final String DEFAULT_KEY = "data/demo-partner/private.pem";
    static final String DEFAULT_CONFIG = "~/.config/payments-cli/config.properties";

    private final Context context;

    @Option(names = "--base-url", paramLabel = "URL",
            description = "the service (env PAYMENTS_BASE_URL; default " + DEFAULT_BASE_URL + ")")
    String baseUrl;

    @Option(names = "--project", paramLabel = "PROJECT",
            description = "the partner's project (env PAYMENTS_PROJECT; default " + DEFAULT_PROJECT + ")")
    String project;

    @Option(names = "--key", paramLabel = "FILE",
            description = "the partner's private key, PEM (env PAYMENTS_KEY; default " + DEFAULT_KEY + ")")
    String key;

    @Option(names = "--profile", paramLabel = "NAME",
            description = "the profile of the configuration file (env PAYMENTS_PROFILE; default: default)")
    String profile;

    @Option(names = "--config", paramLabel = "FILE",
            description = "the configuration file, lines <profile>.base_url|project|key=... "
                    + "(env PAYMENTS_CLI_CONFIG; default " + DEFAULT_CONFIG + ")")
    String config;

    Connection(Context context) {
        this.context = context;
    }

    String baseUrl() {
        String url = setting(baseUrl, "PAYMENTS_BASE_URL", "base_url").orElse(DEFAULT_BASE_URL).trim();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new CliException("the base URL is not a URL: " + url);
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new CliException("the base URL must be http(s)://host[:port]: " + url);
        }
        return url;
    }

    String project() {
        return setting(project, "PAYMENTS_PROJECT", "project").orElse(DEFAULT_PROJECT);
    }

    Path keyFile() {
        return context.resolve(setting(key, "PAYMENTS_KEY", "key").orElse(DEFAULT_KEY));
    }

    PrivateKey privateKey() {
        return Keys.readPrivateKey(keyFile());
    }

    private Optional<String> setting(String flag, String variable, String property) {
        if (flag != null && !flag.isBlank()) {
            return Optional.of(flag);
        }
        String fromEnvironment = context.environment().get(variable);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return Optional.of(fromEnvironment);
        }
        String name = Optional.ofNullable(profile).or(() -> Optional.ofNullable(context.environment()
                .get("PAYMENTS_PROFILE"))).filter(text -> !text.isBlank()).orElse("default");
        return Optional.ofNullable(profiles().getProperty(name + "." + property)).filter(text -> !text.isBlank());
    }

    private Properties profiles() {
        boolean given = config != null || context.environment().get("PAYMENTS_CLI_CONFIG") != null;
        Path file = context.resolve(Optional.ofNullable(config)
                .or(() -> Optional.ofNullable(context.environment().get("PAYMENTS_CLI_CONFIG")))
                .orElse(DEFAULT_CONFIG));
        Properties properties = new Properties();
        if (!Files.exists(file)) {
            if (given) {
                throw new CliException("no configuration file at " + file);
            }
            return properties;
        }
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new CliException("cannot read the configuration file " + file + ": " + e.getMessage());
        }
        if (profile != null && properties.stringPropertyNames().stream().noneMatch(name -> name.startsWith(profile + "."))) {
            throw new CliException("no profile " + profile + " in " + file);
        }
        return properties;
    }
}
