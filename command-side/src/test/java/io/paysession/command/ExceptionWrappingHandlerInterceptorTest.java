package io.paysession.command;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.CommandCallback;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.CommandResultMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.GenericCommandResultMessage;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.distributed.CommandBusConnector;
import org.axonframework.commandhandling.distributed.CommandMessageFilter;
import org.axonframework.commandhandling.distributed.CommandRouter;
import org.axonframework.commandhandling.distributed.DistributedCommandBus;
import org.axonframework.commandhandling.distributed.Member;
import org.axonframework.common.Registration;
import org.axonframework.messaging.HandlerExecutionException;
import org.axonframework.messaging.MessageHandler;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.RemoteExceptionDescription;
import org.axonframework.messaging.RemoteHandlingException;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A refusal keeps its error code across a command bus that runs the command in another process: the interceptor
 * puts the refusal's {@link ErrorDetails} on a {@link CommandExecutionException}, which is all such a bus carries
 * back; {@link RemoteRefusals} registers it on such a bus and leaves the local bus as it was.
 */
class ExceptionWrappingHandlerInterceptorTest {

    private static final PaymentsException REFUSAL = PaymentsException.wrongState("The session is already finished");

    @Test
    void aRefusalBecomesACommandExecutionExceptionCarryingItsCodeAndDescription() {
        DefaultUnitOfWork<CommandMessage<?>> unitOfWork = DefaultUnitOfWork.startAndGet(command());

        assertThatThrownBy(() -> new ExceptionWrappingHandlerInterceptor().handle(unitOfWork, () -> {
            throw REFUSAL;
        }))
                .isInstanceOfSatisfying(CommandExecutionException.class, wrapped -> {
                    assertThat(wrapped.getDetails()).contains(
                            ErrorDetails.of(ErrorCode.SESSION_WRONG_STATE, "The session is already finished"));
                    assertThat(wrapped).hasMessage("The session is already finished").hasCause(REFUSAL);
                });
    }

    @Test
    void resultsAndOtherFailuresPassUnchanged() throws Exception {
        ExceptionWrappingHandlerInterceptor interceptor = new ExceptionWrappingHandlerInterceptor();
        IllegalStateException fault = new IllegalStateException("a fault of the service");

        assertThat(interceptor.handle(DefaultUnitOfWork.startAndGet(command()), () -> "done")).isEqualTo("done");
        assertThatThrownBy(() -> interceptor.handle(DefaultUnitOfWork.startAndGet(command()), () -> {
            throw fault;
        })).isSameAs(fault);
    }

    @Test
    void overABusThatAnswersFromAnotherProcessTheRefusalArrivesWithItsErrorDetails() {
        ProcessOverTheWire otherProcess = new ProcessOverTheWire();
        CommandBus bus = distributedBusTo(otherProcess);
        new RemoteRefusals(bus);

        Throwable failure = dispatch(bus);

        assertThat(failure).isInstanceOf(CommandExecutionException.class).hasMessage("The session is already finished");
        assertThat(((CommandExecutionException) failure).getDetails())
                .contains(ErrorDetails.of(ErrorCode.SESSION_WRONG_STATE, "The session is already finished"));
        assertThat(failure).hasRootCauseInstanceOf(RemoteHandlingException.class);
    }

    @Test
    void withoutTheInterceptorSuchABusWouldCarryNoCodeAtAll() {
        Throwable failure = dispatch(distributedBusTo(new ProcessOverTheWire()));

        assertThat(failure).isInstanceOf(CommandExecutionException.class);
        assertThat(((CommandExecutionException) failure).getDetails()).isEmpty();
    }

    @Test
    void onTheLocalBusTheSenderStillGetsTheRefusalItself() {
        SimpleCommandBus local = refusingBus();
        new RemoteRefusals(local);

        assertThat(dispatch(local)).isSameAs(REFUSAL);
    }

    private static GenericCommandMessage<String> command() {
        return new GenericCommandMessage<>("finish the session");
    }

    private static SimpleCommandBus refusingBus() {
        SimpleCommandBus bus = SimpleCommandBus.builder().build();
        bus.subscribe(String.class.getName(), message -> {
            throw REFUSAL;
        });
        return bus;
    }

    private static Throwable dispatch(CommandBus bus) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        bus.dispatch(command(), (message, result) -> failure.set(result.exceptionResult()));
        assertThat(failure.get()).as("the command was refused").isNotNull();
        return failure.get();
    }

    private static DistributedCommandBus distributedBusTo(ProcessOverTheWire otherProcess) {
        Member member = new Member() {
            @Override
            public String name() {
                return "other-process";
            }

            @Override
            public <T> Optional<T> getConnectionEndpoint(Class<T> protocol) {
                return Optional.empty();
            }

            @Override
            public boolean local() {
                return false;
            }

            @Override
            public void suspect() {
            }
        };
        CommandRouter router = new CommandRouter() {
            @Override
            public Optional<Member> findDestination(CommandMessage<?> command) {
                return Optional.of(member);
            }

            @Override
            public void updateMembership(int loadFactor, CommandMessageFilter filter) {
            }
        };
        return DistributedCommandBus.builder().commandRouter(router).connector(otherProcess).build();
    }

    /**
     * The command handled on a bus of its own, and its outcome sent back as a wire would carry it: a failure's
     * message and its details serialized to JSON and back, never the exception itself (what Axon's connectors do).
     */
    private static final class ProcessOverTheWire implements CommandBusConnector {
        private final SimpleCommandBus handlingBus = refusingBus();
        private final JacksonSerializer wire = JacksonSerializer.defaultSerializer();

        @Override
        public <C> void send(Member destination, CommandMessage<? extends C> command) {
            handlingBus.dispatch(command);
        }

        @Override
        public <C, R> void send(Member destination, CommandMessage<C> command, CommandCallback<? super C, R> callback) {
            handlingBus.dispatch(command, (message, result) -> {
                if (!result.isExceptional()) {
                    callback.onResult(command, GenericCommandResultMessage.asCommandResultMessage(result.getPayload()));
                    return;
                }
                Throwable failure = result.exceptionResult();
                Object details = HandlerExecutionException.resolveDetails(failure)
                        .map(found -> wire.deserialize(wire.serialize(found, byte[].class)))
                        .orElse(null);
                CommandResultMessage<R> received = GenericCommandResultMessage.asCommandResultMessage(
                        new CommandExecutionException(failure.getMessage(),
                                new RemoteHandlingException(RemoteExceptionDescription.describing(failure)), details));
                callback.onResult(command, received);
            });
        }

        @Override
        public Registration subscribe(String commandName, MessageHandler<? super CommandMessage<?>> handler) {
            return handlingBus.subscribe(commandName, handler);
        }

        @Override
        public Registration registerHandlerInterceptor(
                MessageHandlerInterceptor<? super CommandMessage<?>> handlerInterceptor) {
            return handlingBus.registerHandlerInterceptor(handlerInterceptor);
        }
    }
}
