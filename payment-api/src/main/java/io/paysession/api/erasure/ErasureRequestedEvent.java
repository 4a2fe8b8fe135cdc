package io.paysession.api.erasure;

import org.axonframework.serialization.Revision;

import java.time.Instant;

/**
 * An operator erased the personal data of one customer of {@code project} ({@code POST /admin/v1/erasures}): the keys
 * of {@code sessions} sessions were erased. Who and when, not what: the customer reference is not recorded, and the
 * session ids are in each session's own {@code PersonalDataErasedEvent}.
 */
@Revision("1")
public record ErasureRequestedEvent(String erasureId, String project, int sessions, String requestedBy,
                                    Instant occurredAt) {
}
