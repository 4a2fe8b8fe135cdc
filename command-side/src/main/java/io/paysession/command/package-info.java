/**
 * The write side: the {@code Session} and {@code Partner} aggregates decide and emit events; the payment
 * process reacts to events by calling the rails through their ports and reports each answer back as a
 * command; the sandbox rails simulate real rails behind those ports; the card vault keeps card numbers
 * encrypted and out of every event. Nothing here imports the query side or the webhook projector.
 */
package io.paysession.command;
