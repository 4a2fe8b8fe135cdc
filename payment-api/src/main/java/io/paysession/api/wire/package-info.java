/**
 * The one {@code ObjectMapper} of events, views and answers, and the wire format's time stamps (UTC, microseconds).
 */
package io.paysession.api.wire;
