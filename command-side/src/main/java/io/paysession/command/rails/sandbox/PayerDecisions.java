package io.paysession.command.rails.sandbox;

import io.paysession.api.session.AuthorizationOutcome;

/** A sandbox rail's answer once the payer has acted on its hosted page. */
interface PayerDecisions {

    boolean decides(InteractionKind kind);

    AuthorizationOutcome afterPayer(SandboxInteractions.Interaction interaction, boolean approved);
}
