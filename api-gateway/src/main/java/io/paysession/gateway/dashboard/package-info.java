/**
 * The operator's dashboard under {@code /dashboard} (docs/dashboard.md): server-rendered pages over the same services
 * as the admin API, behind a sign-in with the admin token, a cookie and CSRF tokens.
 */
package io.paysession.gateway.dashboard;
