/**
 * Several nodes on one PostgreSQL: spreading the streaming processors' segments over the nodes that run them, and
 * the roles a node runs ({@code payments.roles}).
 */
package io.paysession.gateway.cluster;
