package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.axoniq.axonserver.grpc.command.CommandResponse;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.wire.PaymentJson;
import io.paysession.command.ExceptionWrappingHandlerInterceptor;
import org.axonframework.axonserver.connector.AxonServerConfiguration;
import org.axonframework.axonserver.connector.command.CommandSerializer;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.GenericCommandResultMessage;
import org.axonframework.messaging.RemoteExceptionDescription;
import org.axonframework.messaging.RemoteHandlingException;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A refusal that ran on another process's command bus arrives as a {@link CommandExecutionException} with the
 * {@link ErrorDetails} the command side put on it and a {@link RemoteHandlingException} in place of the refusal;
 * the partner gets the same status, code and description as for the same refusal on the local bus.
 */
class ApiExceptionHandlerRemoteRefusalTest {

    private final ApiExceptionHandler handler = new ApiExceptionHandler();

    @Test
    void aRefusalThatCrossedTheBusGetsTheAnswerOfTheSameRefusalHere() throws Exception {
        for (PaymentsException refusal : List.of(
                PaymentsException.wrongState("The session is already finished"),
                new PaymentsException(ErrorCode.AUTHORIZATION_ERROR, "The session belongs to another project"),
                new PaymentsException(ErrorCode.REFUND_AMOUNT_TOO_LARGE, "Nothing is left to refund"),
                new PaymentsException(ErrorCode.SESSION_NOT_FOUND, "Session not found"))) {
            ResponseEntity<ObjectNode> local = handler.refusal(refusal);

            ResponseEntity<ObjectNode> remote = handler.remoteRefusal(asReceivedFromAnotherProcess(refusal));

            assertThat(remote.getStatusCode().value()).as(refusal.code().code())
                    .isEqualTo(local.getStatusCode().value()).isEqualTo(refusal.code().httpStatus());
            assertThat(remote.getBody()).isEqualTo(local.getBody());
            assertThat(remote.getBody().path("error").path("code").asText()).isEqualTo(refusal.code().code());
            assertThat(remote.getBody().path("error").path("description").asText()).isEqualTo(refusal.getMessage());
        }
    }

    /**
     * Through the codec Axon Server's command bus uses on both ends (the handler's node serializes the result with
     * the service's message serializer, the sender's node deserializes it): the sender gets the refusal's code and
     * description. What Axon Server itself does between the two is not here (docs/scaling.md).
     */
    @Test
    void aRefusalThroughAxonServersCommandCodecGetsTheAnswerOfTheSameRefusalHere() throws Exception {
        CommandSerializer codec = new CommandSerializer(JacksonSerializer.builder()
                .objectMapper(PaymentJson.newObjectMapper()).build(), new AxonServerConfiguration());
        for (PaymentsException refusal : List.of(
                PaymentsException.wrongState("The session is already finished"),
                new PaymentsException(ErrorCode.INSUFFICIENT_WALLET_BALANCE, "The payout is more than the balance"))) {
            CommandExecutionException wrapped = wrappedByTheCommandSide(refusal);
            CommandResponse overTheWire = codec.serialize(
                    GenericCommandResultMessage.asCommandResultMessage(wrapped), "request-1");

            Throwable received = codec.deserialize(overTheWire).exceptionResult();

            assertThat(received).isInstanceOf(CommandExecutionException.class);
            ResponseEntity<ObjectNode> remote = handler.remoteRefusal((CommandExecutionException) received);
            assertThat(remote.getStatusCode().value()).isEqualTo(refusal.code().httpStatus());
            assertThat(remote.getBody()).isEqualTo(handler.refusal(refusal).getBody());
        }
    }

    @Test
    void aFailureThatCrossedTheBusWithoutDetailsIsAnInternalErrorThatTellsNothing() {
        CommandExecutionException failure = new CommandExecutionException("NullPointerException at Session.java:12",
                new RemoteHandlingException(RemoteExceptionDescription.describing(new NullPointerException())), null);

        ResponseEntity<ObjectNode> answer = handler.remoteRefusal(failure);

        assertThat(answer.getStatusCode().value()).isEqualTo(500);
        assertThat(answer.getBody().path("error").path("code").asText()).isEqualTo("internal_error");
        assertThat(answer.getBody().toString()).doesNotContain("Session.java", "NullPointerException");
    }

    /** The refusal as the command side's interceptor hands it to a bus that answers from another process. */
    private static CommandExecutionException wrappedByTheCommandSide(PaymentsException refusal) {
        CommandMessage<?> command = new GenericCommandMessage<>("a command");
        DefaultUnitOfWork<CommandMessage<?>> unitOfWork = DefaultUnitOfWork.startAndGet(command);
        try {
            return catchThrowableOfType(CommandExecutionException.class,
                    () -> new ExceptionWrappingHandlerInterceptor().handle(unitOfWork, () -> {
                        throw refusal;
                    }));
        } finally {
            // a unit of work left started stays the thread's current one, and the next test's events would go to it
            unitOfWork.rollback();
        }
    }

    /**
     * The refusal through the command side's interceptor, then what a bus that answers from another process
     * delivers of it: the message and the details, with the refusal itself left behind.
     */
    private static CommandExecutionException asReceivedFromAnotherProcess(PaymentsException refusal) throws Exception {
        CommandExecutionException wrapped = wrappedByTheCommandSide(refusal);
        return new CommandExecutionException(wrapped.getMessage(),
                new RemoteHandlingException(RemoteExceptionDescription.describing(wrapped)), wrapped.getDetails().orElse(null));
    }
}
