/**
 * The partner directory read model ({@code partner_directory}), kept in the command's transaction.
 */
package io.paysession.query.partner;
