/**
 * What the application runs on: the embedded PostgreSQL (its password, its watchdog), the data directory, Axon's
 * JDBC storage (gap time-out), Tomcat's settings and JSON error pages, the pinned Tomcat wire logging, periodic
 * tasks.
 */
package io.paysession.gateway.infra;
