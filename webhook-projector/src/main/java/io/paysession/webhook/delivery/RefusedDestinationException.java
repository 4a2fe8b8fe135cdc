package io.paysession.webhook.delivery;

import java.net.UnknownHostException;

/**
 * A webhook host whose addresses are all refused by {@link WebhookDestinations}. An
 * {@link UnknownHostException}, so that it leaves the HTTP client's name resolution the way a name that does
 * not resolve does: no connection is opened.
 */
public class RefusedDestinationException extends UnknownHostException {

    public RefusedDestinationException(String message) {
        super(message);
    }
}
