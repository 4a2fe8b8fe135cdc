package io.paysession.command.process;

import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.test.utils.RecordingCommandBus;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Session and token aggregates as a process sees them, without them: a {@link ProcessCommandSender} on
 * Axon's {@link RecordingCommandBus}, which records every command sent and applies it, unless the test told it
 * to refuse the next command of a type (a {@code session_wrong_state} for an answer already recorded, a disabled
 * token, a token that exists already). It keeps the rail calls in flight in memory and ends each as the command
 * that records its answer is applied, as {@link RailAnswerRecorded} does in the command's transaction.
 */
final class RecordingCommands implements AutoCloseable {

    private final RecordingCommandBus bus = new RecordingCommandBus();
    private final Map<Class<?>, Deque<RuntimeException>> refusals = new HashMap<>();
    private final ProcessCommandSender sender;
    private final InMemoryRailCallsInFlight inFlight = new InMemoryRailCallsInFlight();
    /** Axon's RecordingCommandBus keeps its commands in a plain list: commands sent from two threads at once lost one. */
    private final List<Object> sent = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    RecordingCommands() {
        bus.setCallbackBehavior((command, metaData) -> {
            sent.add(command);
            RuntimeException refusal = nextRefusal(command.getClass());
            if (refusal != null) {
                throw refusal;
            }
            // what RailAnswerRecorded does in the transaction of a command that records a rail's answer
            if (metaData.get(RailAnswerRecorded.ANSWERED_EVENT) instanceof String eventId) {
                inFlight.answered(eventId);
            }
            return null;
        });
        sender = new ProcessCommandSender(DefaultCommandGateway.builder().commandBus(bus).build());
    }

    ProcessCommandSender sender() {
        return sender;
    }

    /** The rail calls in flight, ended as the commands that record their answers are applied. */
    InMemoryRailCallsInFlight inFlight() {
        return inFlight;
    }

    /** The calls of the processes under test: answers within {@code timeout}, recorded through this bus. */
    RailCalls railCalls(java.time.Duration timeout) {
        return new RailCalls(inFlight, sender, timeout);
    }

    /** The next command of this type is refused with {@code refusal}, as its aggregate would refuse it. */
    synchronized RecordingCommands refuseNext(Class<?> commandType, RuntimeException refusal) {
        refusals.computeIfAbsent(commandType, any -> new ArrayDeque<>()).add(refusal);
        return this;
    }

    /** Every command sent, applied or refused, in order. */
    List<Object> sent() {
        synchronized (sent) {
            return List.copyOf(sent);
        }
    }

    private synchronized RuntimeException nextRefusal(Class<?> commandType) {
        Deque<RuntimeException> queued = refusals.get(commandType);
        return queued == null ? null : queued.poll();
    }

    @Override
    public void close() {
        sender.destroy();
    }
}
