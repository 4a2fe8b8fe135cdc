/**
 * The operator's API under {@code /admin/v1} and the actuator, behind the admin bearer token: partners, webhooks,
 * audit and reconciliation, dead letters; answers share {@code AdminAnswers}.
 */
package io.paysession.gateway.http.admin;
