/**
 * The read side: projections fold the event stream into tables that answer queries (a session as
 * {@code session/status} shows it, the partner directory the signature filter reads). Every table here
 * can be dropped and rebuilt from the event store. The session views and the partner directory run in
 * subscribing processors, inside the transaction that stores the events, so the response to a command
 * and a {@code session/status} right after it always show the state after that command.
 */
package io.paysession.query;
