package io.paysession.command.rails.sandbox;

/** Where the hosted payer pages of the sandbox are; the HTTP edge, which serves them, knows its address. */
public interface SandboxLinks {

    String interactionUrl(String interactionId);
}
