/**
 * A load generator for the card payment lifecycle that measures the service from outside, as partners
 * see it: it starts the service as its own process, registers partners with their own RSA keys, runs
 * signed lifecycles on loopback, verifies every webhook, and reports throughput and latency next to the
 * ceilings of the same machine (RSA operations per core, committed inserts of the same PostgreSQL).
 */
package io.paysession.benchmark;
