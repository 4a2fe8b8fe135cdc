/**
 * Audit and reconciliation: a session's event history with the request behind each event, the session as
 * it was at an instant or position, the reconciliation report and its verification against the event
 * store, and the replay of projections into fresh tables compared with the live ones. The same classes
 * serve the admin API and the command line ({@code java -jar … audit …}).
 */
package io.paysession.gateway.audit;
