/**
 * Keys and tokens of the service: RSA signatures and PEM, the webhook-signing service key (encrypted at rest under
 * the vault key), the admin token, the vault key ring's configuration, and the sweep that erases security codes
 * older than the longest confirm window.
 */
package io.paysession.gateway.security;
