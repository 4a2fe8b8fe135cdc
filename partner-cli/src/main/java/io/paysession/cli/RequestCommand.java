package io.paysession.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.security.PrivateKey;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code request METHOD [BODY]}: the body's exact bytes signed with the partner's key, sent, and the answer printed.
 * The signature is checked with the key's public half before anything is sent, over the very bytes that go out, so
 * that a refusal by the service can only mean the service does not know this key for this project.
 */
@Command(name = "request", mixinStandardHelpOptions = true,
        description = {"Signs the exact bytes of BODY with the partner's key, sends them to METHOD and prints the "
                + "answer (its status and time on stderr, its body on stdout).",
                "Examples: request session/init/payment @payment.json",
                "          request --api v2 session/status '{\"session_id\":\"ps_1\"}'",
                "          request /cds/v1/tokenize/elements @card.json"})
final class RequestCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    Connection connection;

    @Parameters(index = "0", paramLabel = "METHOD",
            description = "the call, e.g. session/init/payment (under /api/<api>/), or a whole path starting with /")
    String method;

    @Parameters(index = "1", arity = "0..1", paramLabel = "BODY",
            description = "the JSON body as text, @file for a file's exact bytes, - for stdin (default: {})")
    String body = "{}";

    @Option(names = "--api", paramLabel = "v1|v2", defaultValue = "v1", description = "the API version (default: v1)")
    String api;

    @Option(names = "--idempotency-key", paramLabel = "KEY",
            description = "sent as X-PARTNER-IDEMPOTENCY-KEY: a retry with the same key and body gets the first answer")
    String idempotencyKey;

    @Option(names = "--raw", description = "print the answer's bytes as they came, not indented")
    boolean raw;

    RequestCommand(Context context) {
        this.context = context;
        this.connection = new Connection(context);
    }

    @Override
    public Integer call() {
        if (!api.equals("v1") && !api.equals("v2")) {
            throw new CliException("--api is v1 or v2, not " + api);
        }
        String path = method.startsWith("/") ? method : "/api/" + api + "/" + method;
        byte[] bytes = PartnerCli.bytesOf(body, context);
        try {
            ServiceApi.JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new CliException("the body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new CliException("the body is not JSON: " + e.getMessage());
        }
        PrivateKey key = connection.privateKey();
        String signature = Keys.sign(key, bytes);
        if (!Keys.verify(Keys.publicOf(key), bytes, signature)) {
            throw new CliException("the signature does not verify with the key's own public half: the key file "
                    + connection.keyFile() + " is damaged");
        }
        ServiceApi service = new ServiceApi(context.http(), connection.baseUrl());
        ServiceApi.Answer answer = service.post(path, bytes, connection.project(), key,
                Optional.ofNullable(idempotencyKey).filter(value -> !value.isBlank()));
        context.err().println("POST " + path + " (" + bytes.length + " bytes signed as " + connection.project()
                + ") -> HTTP " + answer.status() + " in " + answer.millis() + " ms");
        JsonNode json = answer.json();
        context.out().println(raw || json.isMissingNode() ? answer.text() : json.toPrettyString());
        if (answer.status() == 401 || answer.status() == 403) {
            context.err().println("hint: the service refused the partner (" + answer.errorCode() + "): is "
                    + connection.keyFile() + " the key registered for project " + connection.project() + " at "
                    + connection.baseUrl() + "?");
        }
        return answer.ok() ? 0 : PartnerCli.FAILED;
    }
}
