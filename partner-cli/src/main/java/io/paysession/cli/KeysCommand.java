package io.paysession.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;

/** {@code keys generate}: the partner's key pair, and its public half in the form the operator registers. */
@Command(name = "keys", mixinStandardHelpOptions = true, description = "The partner's RSA keys.",
        subcommands = KeysCommand.Generate.class)
final class KeysCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = {"Writes a new RSA-2048 key pair (private.pem readable by you only, public.pem) and prints",
                    "the public key and the registration body the operator sends to POST /admin/v1/partners."})
    static final class Generate implements java.util.concurrent.Callable<Integer> {

        private final Context context;

        @Option(names = "--out", paramLabel = "DIR", defaultValue = "partner-keys",
                description = "where the two files go (default: ${DEFAULT-VALUE})")
        String out;

        @Option(names = "--project", paramLabel = "PROJECT",
                description = "the project the registration body names (default: my-shop)")
        String project = "my-shop";

        @Option(names = "--force", description = "replace a key pair already in the directory")
        boolean force;

        Generate(Context context) {
            this.context = context;
        }

        @Override
        public Integer call() {
            Path directory = context.resolve(out);
            Path privateFile = directory.resolve("private.pem");
            Path publicFile = directory.resolve("public.pem");
            if (!force && (Files.exists(privateFile) || Files.exists(publicFile))) {
                throw new CliException(directory + " already holds a key pair: keep it, or give --force to replace "
                        + "it (the service then refuses the old key's signatures once the operator registers the new)");
            }
            KeyPair pair = Keys.generate();
            String publicPem = Keys.pem(pair.getPublic());
            try {
                Files.createDirectories(directory);
                writeOwnerOnly(privateFile, Keys.pem(pair.getPrivate()));
                Files.writeString(publicFile, publicPem, StandardCharsets.US_ASCII);
            } catch (IOException e) {
                throw new CliException("cannot write the keys into " + directory + ": " + e.getMessage());
            }
            ObjectNode registration = ServiceApi.JSON.createObjectNode()
                    .put("project", project)
                    .put("public_key", publicPem)
                    .put("webhook_url", "https://" + project + ".example/payments/webhooks");
            context.out().println("private key: " + privateFile + " (keep it secret; it signs your requests)");
            context.out().println("public key:  " + publicFile);
            context.out().println();
            context.out().print(publicPem);
            context.out().println();
            context.out().println("The operator registers it with POST /admin/v1/partners, body (your webhook URL in it):");
            context.out().println(registration.toPrettyString());
            return 0;
        }

        private static void writeOwnerOnly(Path file, String text) throws IOException {
            Files.deleteIfExists(file);
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException e) {
                Files.createFile(file);
            } catch (FileAlreadyExistsException e) {
                throw new IOException(file + " appeared while it was being written", e);
            }
            Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
        }
    }
}
