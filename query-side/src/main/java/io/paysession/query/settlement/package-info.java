/**
 * The reconciliation read model: settlement entries and failures derived by the settlement rules, and the position
 * up to which the report is complete (gaps of lost transactions given up after the gap time-out).
 */
package io.paysession.query.settlement;
