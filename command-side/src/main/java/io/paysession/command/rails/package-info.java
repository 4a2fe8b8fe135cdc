/**
 * The rail ports ({@code PaymentRail}, {@code PayoutRail}, the instant-payment bank directory), their outcomes,
 * and the choice of adapters ({@code RailSelection}, {@code payments.rails}). The contract every adapter keeps is
 * docs/rails.md; its test kit is in this module's test jar.
 */
package io.paysession.command.rails;
