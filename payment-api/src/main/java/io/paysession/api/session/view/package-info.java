/**
 * The pure fold of a session's events into its view ({@code SessionViewFold}), and that view written as the wire
 * JSON of API v1 or v2 ({@code SessionRepresentation}); shared by the query side, the webhooks and the audit.
 */
package io.paysession.api.session.view;
