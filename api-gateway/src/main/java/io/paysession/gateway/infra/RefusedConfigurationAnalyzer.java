package io.paysession.gateway.infra;

import io.paysession.command.RefusedConfigurationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A start refused for its configuration is reported as Spring Boot reports a missing setting: "APPLICATION
 * FAILED TO START", what is wrong and what to do, rather than a stack trace the operator must read through.
 */
public class RefusedConfigurationAnalyzer extends AbstractFailureAnalyzer<RefusedConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, RefusedConfigurationException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
