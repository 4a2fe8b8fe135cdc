package io.paysession.webhook.delivery;

import java.net.URI;

/**
 * The service's own sandbox webhook inbox, where the demo partner's webhooks go. It is this service on
 * loopback, so {@link WebhookDestinations} lets exactly its URLs through without an allowance, and they are
 * sent to the loopback address only. The application provides it when the inbox runs; production has none.
 */
public interface OwnWebhookInbox {

    /** True only for a URL of this service's own inbox: its scheme, host, port and inbox path, nothing else. */
    boolean isOwnInbox(URI url);
}
