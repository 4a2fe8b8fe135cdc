package io.paysession.query.audit;

import io.paysession.api.RequestMetadataKeys;
import io.paysession.api.error.PaymentsException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.view.SessionRepresentation;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.session.view.SessionViewFold;
import org.axonframework.messaging.MetaData;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A session's history and the session as it was: every event in order with its time, position (where the store
 * tells it: not on Axon Server), type, the
 * payload as stored (cards appear as the vault shows them) and the request behind it; and the view at an
 * instant or a position, folded from the events up to there.
 */
public class SessionAudit {

    private final StoredEvents events;

    public SessionAudit(StoredEvents events) {
        this.events = events;
    }

    public Optional<ArrayNode> history(SessionId sessionId) {
        List<StoredEvents.StoredEvent> stored = events.ofAggregate(sessionId.value());
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        ArrayNode history = JsonNodeFactory.instance.arrayNode();
        for (StoredEvents.StoredEvent event : stored) {
            ObjectNode node = history.addObject();
            if (event.positionKnown()) {
                node.put("position", event.globalIndex());
            }
            node.put("sequence", event.sequence());
            node.put("time", event.timestamp());
            node.put("type", event.simpleType());
            node.put("event_id", event.eventId());
            node.set("payload", events.readablePayloadJson(event));
            MetaData metaData = events.metaData(event);
            ObjectNode request = JsonNodeFactory.instance.objectNode();
            put(request, "endpoint", metaData.get(RequestMetadataKeys.ENDPOINT));
            put(request, "project", metaData.get(RequestMetadataKeys.PROJECT));
            put(request, "idempotency_key", metaData.get(RequestMetadataKeys.IDEMPOTENCY_KEY));
            put(request, "request_id", metaData.get(RequestMetadataKeys.REQUEST_ID));
            if (!request.isEmpty()) {
                node.set("request", request);
            }
            put(node, "correlation_id", metaData.get("correlationId"));
        }
        return Optional.of(history);
    }

    /**
     * The session after its events up to {@code at} (their recorded time, as the history shows it, inclusive) or {@code position} (global
     * index, inclusive); empty when the session did not exist yet.
     */
    public Optional<ObjectNode> viewAt(SessionId sessionId, Instant at, Long position, ApiVersion version) {
        SessionView view = null;
        for (StoredEvents.StoredEvent stored : events.ofAggregate(sessionId.value())) {
            if (position != null && !stored.positionKnown()) {
                throw PaymentsException.invalidRequest("This event store does not tell a session's positions "
                        + "(Axon Server): ask for the session at an instant instead");
            }
            if (position != null && stored.globalIndex() > position) {
                break;
            }
            if (at != null && Instant.parse(stored.timestamp()).isAfter(at)) {
                break;
            }
            if (events.payload(stored) instanceof SessionEvent event) {
                view = SessionViewFold.apply(view, event, stored.sequence());
            }
        }
        if (view == null) {
            return Optional.empty();
        }
        return Optional.of(SessionRepresentation.render(view, version == null ? view.apiVersion() : version));
    }

    private static void put(ObjectNode node, String field, Object value) {
        if (value != null) {
            node.put(field, value.toString());
        }
    }
}
