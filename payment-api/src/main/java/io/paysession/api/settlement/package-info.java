/**
 * What a session's events mean for a partner's settlement: succeeded payments, captures, refunds and
 * payouts with their amounts and fees, and the operations that failed. One pure definition, used by the
 * reconciliation read model and by its verification, which folds the event store itself.
 */
package io.paysession.api.settlement;
