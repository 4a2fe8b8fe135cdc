/**
 * Partners in messages: their commands, events, terms (capture mode, fees) and the view of a registered partner.
 */
package io.paysession.api.partner;
