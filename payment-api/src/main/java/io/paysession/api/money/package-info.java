/**
 * Amounts in integer minor units with their currency, and the partner's fee schedule (fixed plus basis points).
 */
package io.paysession.api.money;
