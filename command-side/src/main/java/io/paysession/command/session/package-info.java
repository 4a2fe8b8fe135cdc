/**
 * The {@code Session} aggregate, the consistency boundary of a payment (with its refunds) or a payout: its
 * operations as aggregate members ({@code Payment} holding its {@code Refund}s, {@code Payout}, both an
 * {@code Operation}), its transition table {@code SessionLifecycle}, its time limits as persistent deadlines, and
 * the limits a partner's requests cannot pass.
 */
package io.paysession.command.session;
