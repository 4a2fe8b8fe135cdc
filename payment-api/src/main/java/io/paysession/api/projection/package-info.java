/**
 * The contract between the audit replay and the modules that own projections: each module rebuilds its own
 * projections into fresh tables from the stored session events ({@link io.paysession.api.projection.ProjectionRebuild})
 * and compares them with its live tables, so the replay itself never names another module's tables.
 */
package io.paysession.api.projection;
