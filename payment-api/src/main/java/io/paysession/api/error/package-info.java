/**
 * The contract's error codes (decisions.md section 2), the details a failure carries, and the exception that
 * carries them.
 */
package io.paysession.api.error;
