/**
 * The {@code preload} command of the service jar: fills an empty store with finished sessions, written by the
 * modules' own projection and store code, so that the benchmark can measure the service against a large store
 * (docs/benchmark.md, "Preload").
 */
package io.paysession.gateway.preload;
