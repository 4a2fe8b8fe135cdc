package io.paysession.command.rails.sandbox;

import io.paysession.command.rails.RailSelection;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A bean of the sandbox: it exists only with {@code payments.rails=sandbox} (or without the property, whose
 * default that is outside the production profile). Every simulated rail, the payer actions and their hosted
 * pages carry it, so that with real adapters none of them is there to be reached (see {@link RailSelection}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ConditionalOnProperty(name = RailSelection.PROPERTY, havingValue = RailSelection.SANDBOX, matchIfMissing = true)
public @interface ConditionalOnSandboxRails {
}
