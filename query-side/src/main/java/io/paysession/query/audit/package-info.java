/**
 * Audit and reconciliation on the read side: the event store read as rows ({@code StoredEvents}), a session's
 * history with the request behind each event and the session as it was at an instant or position
 * ({@code SessionAudit}), the reconciliation report of the read model and its verification against the event
 * store ({@code Reconciliation}, {@code ReportFormats}), and the replay that walks each module's
 * {@link io.paysession.api.projection.ProjectionRebuild} and compares the rebuilt tables with the live ones
 * ({@code ProjectionReplay}). The gateway's admin API and the {@code audit} command line call these.
 */
package io.paysession.query.audit;
