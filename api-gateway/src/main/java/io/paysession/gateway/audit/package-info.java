/**
 * The {@code audit} command line of the service's jar ({@code java -jar … audit …}) and the arguments it shares
 * with the admin API's audit endpoints; the audit services themselves are the read side's
 * ({@code io.paysession.query.audit}).
 */
package io.paysession.gateway.audit;
