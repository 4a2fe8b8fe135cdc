/**
 * The messages shared by every module: commands, events and queries, the ids and values they carry,
 * the error codes of the wire contract, and the pure fold of session events into a {@code SessionView}
 * with its rendering in the naming of each API version. Nothing here does I/O; command-side, query-side
 * and webhook-projector depend on this module and never on each other.
 */
package io.paysession.api;
