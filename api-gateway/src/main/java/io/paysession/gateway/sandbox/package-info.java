/**
 * The sandbox's HTTP side, present only with {@code payments.rails=sandbox}: the hosted payer pages (with their form
 * tokens and strict headers), public links to them, and the webhook inbox of registered projects.
 */
package io.paysession.gateway.sandbox;
