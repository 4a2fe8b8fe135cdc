package io.paysession.gateway.audit;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.RequestMetadataKeys;
import io.paysession.api.wire.WireFormat;
import io.paysession.query.audit.StoredEvents;
import org.axonframework.messaging.MetaData;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.function.Function;

/**
 * The events recorded in {@code [from, to)} as JSON lines chained by {@link AuditChain}, in store order, ending with
 * a head line that the service key signs (docs/audit.md). The first line continues {@code previousHead}: the head
 * hash of the export before (so consecutive exports chain), or {@link AuditChain#GENESIS}.
 */
public final class AuditExport {

    /** What signs the head: the service key's id and its signature of bytes (Base64). */
    public record Signer(String keyId, Function<byte[], String> sign) {
    }

    /** What was written: the number of event lines and the head's hash. */
    public record Written(long events, String headHash) {
    }

    private final StoredEvents events;
    private final Signer signer;
    private final Clock clock;

    public AuditExport(StoredEvents events, Signer signer, Clock clock) {
        this.events = events;
        this.signer = signer;
        this.clock = clock;
    }

    public Written write(Instant from, Instant to, String previousHead, Writer out) {
        long upTo = events.maxGlobalIndex();
        String[] prev = {previousHead};
        long[] count = {0};
        long[] positions = {-1, -1};
        events.forEach(upTo, event -> {
            Instant time = Instant.parse(event.timestamp());
            if (time.isBefore(from) || !time.isBefore(to)) {
                return;
            }
            ObjectNode line = JsonNodeFactory.instance.objectNode();
            line.put("position", event.globalIndex());
            line.put("session_id", event.aggregateId());
            line.put("sequence", event.sequence());
            line.put("event_id", event.eventId());
            line.put("time", WireFormat.timestamp(time));
            line.put("type", event.simpleType());
            line.put("payload", AuditChain.canonical(events.payloadJson(event)));
            MetaData metaData = events.metaData(event);
            putText(line, "endpoint", metaData.get(RequestMetadataKeys.ENDPOINT));
            putText(line, "request_id", metaData.get(RequestMetadataKeys.REQUEST_ID));
            String text = AuditChain.link(line, prev[0]);
            prev[0] = line.get("hash").asText();
            count[0]++;
            if (positions[0] < 0) {
                positions[0] = event.globalIndex();
            }
            positions[1] = event.globalIndex();
            writeLine(out, text);
        });
        ObjectNode head = JsonNodeFactory.instance.objectNode();
        head.put("from", WireFormat.timestamp(from));
        head.put("to", WireFormat.timestamp(to));
        head.put("previous_head", previousHead);
        head.put("events", count[0]);
        if (positions[0] >= 0) {
            head.put("first_position", positions[0]);
            head.put("last_position", positions[1]);
        }
        head.put("store_position", upTo);
        head.put("hash", prev[0]);
        head.put("exported_at", WireFormat.timestamp(clock.instant()));
        head.put("key_id", signer.keyId());
        ObjectNode last = JsonNodeFactory.instance.objectNode();
        last.set("head", head);
        last.put("signature", signer.sign().apply(AuditChain.canonical(head).getBytes(StandardCharsets.UTF_8)));
        writeLine(out, AuditChain.canonical(last));
        return new Written(count[0], prev[0]);
    }

    private static void putText(ObjectNode line, String name, Object value) {
        if (value != null) {
            line.put(name, value.toString());
        }
    }

    private static void writeLine(Writer out, String text) {
        try {
            out.write(text);
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
