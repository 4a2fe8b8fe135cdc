/**
 * The card vault: card numbers and security codes encrypted with AES-GCM under the vault key ring, handed out as
 * tokens; cards stored inside the command that accepts them, security codes erased when their payment's use of them
 * ends and swept after the longest confirm window; the widget's public tokens (docs/security/carddata.md).
 */
package io.paysession.command.vault;
