package io.paysession.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.security.PublicKey;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code verify-webhook}: whether a webhook's body was signed by the service, as the partner's endpoint must check
 * before trusting it. Exit status 0 only for a valid signature.
 */
@Command(name = "verify-webhook", mixinStandardHelpOptions = true,
        description = {"Checks a webhook's X-PARTNER-SIGN over its exact body with the service's public key "
                + "(from --service-key; else the published key --key-id names, from GET /service/public-keys; else "
                + "GET /service/public-key of the service). Exit status 0 only when valid."})
final class VerifyWebhookCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    Connection connection;

    @Option(names = "--body", required = true, paramLabel = "FILE",
            description = "the body exactly as received (- for stdin)")
    String body;

    @Option(names = "--signature", required = true, paramLabel = "SIG",
            description = "the X-PARTNER-SIGN header as received (Base64)")
    String signature;

    @Option(names = "--service-key", paramLabel = "FILE", description = "the service's public key, PEM")
    String serviceKey;

    @Option(names = "--key-id", paramLabel = "ID",
            description = "the X-PARTNER-SIGN-KEY-ID header as received: verify with that published key")
    String keyId;

    VerifyWebhookCommand(Context context) {
        this.context = context;
        this.connection = new Connection(context);
    }

    @Override
    public Integer call() {
        byte[] bytes = PartnerCli.bytesOf(body.equals("-") ? "-" : "@" + body, context);
        Optional<String> pem = servicePublicKeyPem();
        if (pem.isEmpty()) {
            context.out().println("INVALID: service key " + keyId + " is not published (GET /service/public-keys): "
                    + "retired, or never the service's");
            return PartnerCli.FAILED;
        }
        PublicKey key = Keys.readPublicKey(pem.get(), serviceKey != null ? serviceKey
                : "the key of " + connection.baseUrl());
        if (Keys.verify(key, bytes, signature)) {
            context.out().println("valid: signed by the service (" + bytes.length + " bytes"
                    + (keyId != null && serviceKey == null ? ", key " + keyId : "") + ")");
            return 0;
        }
        context.out().println("INVALID: this signature was not made by the service's key over these "
                + bytes.length + " bytes (a changed byte, a re-encoded body or another key)");
        return PartnerCli.FAILED;
    }

    private Optional<String> servicePublicKeyPem() {
        if (serviceKey == null && keyId != null) {
            return new ServiceApi(context.http(), connection.baseUrl()).publishedServiceKey(keyId);
        }
        if (serviceKey == null) {
            return Optional.of(new ServiceApi(context.http(), connection.baseUrl()).servicePublicKey());
        }
        try {
            return Optional.of(Files.readString(context.resolve(serviceKey), StandardCharsets.US_ASCII));
        } catch (NoSuchFileException e) {
            throw new CliException("no file " + e.getFile());
        } catch (IOException e) {
            throw new CliException("cannot read " + serviceKey + ": " + e.getMessage());
        }
    }
}
