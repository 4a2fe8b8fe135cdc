package io.paysession.command.process;

import io.paysession.api.RequestMetadataKeys;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Hands events to the processes as their processor does (through Axon's annotated-handler adapter, with the
 * partner's project in the metadata) and waits until what the handling started is over: the rail's answer
 * recorded, or the event given back. The same event handed again is the same message (same id): a redelivery,
 * as after a crash or by the recovery.
 */
final class EventDelivery {

    private final List<AnnotationEventHandlerAdapter> processes;
    private final String project;
    private final Map<Object, EventMessage<?>> messages = new HashMap<>();

    EventDelivery(String project, Object... processes) {
        this.project = project;
        this.processes = Arrays.stream(processes).map(AnnotationEventHandlerAdapter::new).toList();
    }

    void handle(Object event) {
        join(start(event));
    }

    /** Hands {@code event} over without waiting: the future completes when its chain is over. */
    CompletableFuture<?> start(Object event) {
        EventMessage<?> message = messageOf(event);
        for (AnnotationEventHandlerAdapter process : processes) {
            if (process.canHandle(message)) {
                try {
                    Object result = process.handle(message);
                    return result instanceof CompletableFuture<?> future ? future : CompletableFuture.completedFuture(null);
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalArgumentException("no process handles " + event.getClass().getSimpleName());
    }

    /** The id of the message that carries {@code event}. */
    synchronized String idOf(Object event) {
        return messageOf(event).getIdentifier();
    }

    private synchronized EventMessage<?> messageOf(Object event) {
        return messages.computeIfAbsent(event, payload -> GenericEventMessage.asEventMessage(payload)
                .andMetaData(Map.of(RequestMetadataKeys.PROJECT, project)));
    }

    static void join(CompletableFuture<?> future) {
        try {
            future.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the handling did not end", e);
        }
    }
}
