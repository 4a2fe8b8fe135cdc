/**
 * The {@code RecurrentToken} aggregate: a token granted by a paid payment (128 random bits), used by later charges of
 * its own project only, disabled by its partner.
 */
package io.paysession.command.recurrent;
