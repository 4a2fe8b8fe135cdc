/**
 * The {@code Partner} aggregate: registration and updates of a partner's key, webhook address, capture mode and fees.
 */
package io.paysession.command.partner;
