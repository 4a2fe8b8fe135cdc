/**
 * Identifiers ({@code ps_}, {@code pm_}, {@code po_}, {@code rf_} + a number) from database sequences, unique
 * across all nodes.
 */
package io.paysession.command.ids;
