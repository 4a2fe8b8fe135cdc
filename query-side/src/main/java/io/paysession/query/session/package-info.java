/**
 * The session view read model ({@code session_view}) behind {@code session/status}, kept in the command's
 * transaction (read-your-writes).
 */
package io.paysession.query.session;
