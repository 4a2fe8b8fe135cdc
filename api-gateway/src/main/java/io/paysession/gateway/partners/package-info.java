/**
 * Partners as the gateway sees them: the directory of registered partners and their keys (read from the query
 * side), registration through the admin API, and the demo partner of the embedded default.
 */
package io.paysession.gateway.partners;
