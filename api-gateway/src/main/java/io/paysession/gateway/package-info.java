/**
 * The HTTP edge and the bootable application. It verifies every partner request's signature over the
 * raw body, validates and translates requests into commands and queries, answers in the wire format of
 * the request's API version, serves the admin API and the sandbox pages, and assembles command-side,
 * query-side and webhook-projector into one process on an embedded or external PostgreSQL.
 */
package io.paysession.gateway;
