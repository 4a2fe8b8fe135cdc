/**
 * The recurrent token read model ({@code recurrent_token}), kept in the command's transaction.
 */
package io.paysession.query.recurrent;
