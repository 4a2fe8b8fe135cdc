package io.paysession.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.InputStream;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The partner's command line ({@code java -jar payments-cli.jar}): keys, signed requests, the partner's webhooks
 * forwarded to a local endpoint, and the checks a partner's developer needs on the first day. Exit status 0 on
 * success, 1 when the service refused or something failed (said in one line), 2 for a usage error.
 */
@Command(name = "payments-cli", mixinStandardHelpOptions = true, version = "payments-cli 0.1.0",
        description = "The payment session service from a partner's terminal: sign and send requests, watch and "
                + "forward webhooks, check signatures.",
        subcommands = {KeysCommand.class, RequestCommand.class, ListenCommand.class, TriggerCommand.class,
                VerifyWebhookCommand.class,
                CommandLine.HelpCommand.class},
        footer = {"", "Settings: flags, else PAYMENTS_BASE_URL / PAYMENTS_PROJECT / PAYMENTS_KEY, else the profile of "
                + "the configuration file (--profile, --config), else the demo partner of a service started on this "
                + "machine."})
public final class PartnerCli implements Runnable {

    static final int FAILED = 1;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        Context context = new Context(System.getenv(), Path.of("").toAbsolutePath(),
                Path.of(System.getProperty("user.home")), System.in,
                new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8), Context.newHttpClient(), Clock.systemUTC());
        System.exit(run(context, args));
    }

    /** Runs one command line in {@code context}; its exit status. */
    static int run(Context context, String... args) {
        CommandLine commandLine = new CommandLine(PartnerCli.class, factory(context))
                .setOut(context.out()).setErr(context.err())
                // an argument such as @payment.json is the file's bytes as the body (bytesOf), not picocli's @-file
                .setExpandAtFiles(false)
                .setExecutionExceptionHandler((exception, command, parsed) -> {
                    command.getErr().println("error: " + message(exception));
                    command.getErr().flush();
                    return FAILED;
                });
        int status = commandLine.execute(args);
        context.out().flush();
        context.err().flush();
        return status;
    }

    private static String message(Exception exception) {
        if (exception instanceof CliException) {
            return exception.getMessage();
        }
        return exception.getClass().getSimpleName() + (exception.getMessage() == null ? "" : ": " + exception.getMessage());
    }

    /** Commands and mixins that take the {@link Context} get it; the rest are made as picocli makes them. */
    private static CommandLine.IFactory factory(Context context) {
        CommandLine.IFactory fallback = CommandLine.defaultFactory();
        return new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                    if (constructor.getParameterCount() == 1 && constructor.getParameterTypes()[0] == Context.class) {
                        constructor.setAccessible(true);
                        return type.cast(constructor.newInstance(context));
                    }
                }
                return fallback.create(type);
            }
        };
    }

    /** The bytes of a body argument: the text itself, {@code @file} for a file's exact bytes, {@code -} for stdin. */
    static byte[] bytesOf(String argument, Context context) {
        try {
            if (argument.equals("-")) {
                InputStream in = context.in();
                return in.readAllBytes();
            }
            if (argument.startsWith("@")) {
                return java.nio.file.Files.readAllBytes(context.resolve(argument.substring(1)));
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw new CliException("no file " + e.getFile());
        } catch (java.io.IOException e) {
            throw new CliException("cannot read " + argument + ": " + e.getMessage());
        }
        return argument.getBytes(StandardCharsets.UTF_8);
    }
}
