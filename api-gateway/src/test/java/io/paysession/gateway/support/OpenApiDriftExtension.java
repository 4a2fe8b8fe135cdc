package io.paysession.gateway.support;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;

/**
 * Fails a test during which an exchange or a webhook did not match the OpenAPI documents ({@link OpenApiContract}).
 * Registered for every test of the module (META-INF/services, junit-platform.properties). Tests of a class run one
 * after the other, so what is gathered between a test's start and end is that test's (a webhook of an earlier test
 * arriving late is blamed on the next: the message names the session).
 */
public final class OpenApiDriftExtension implements BeforeEachCallback, AfterEachCallback {

    @Override
    public void beforeEach(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        OpenApiContract.testStarts(testClass.getSimpleName() + "." + context.getRequiredTestMethod().getName(),
                testClass.isAnnotationPresent(OpenApiContract.SendsOddRequests.class));
        if (!reportOnly()) {
            OpenApiContract.takeViolations();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<String> violations = OpenApiContract.takeViolations();
        if (!violations.isEmpty() && !reportOnly()) {
            throw new AssertionError("The exchanges of this test do not match the OpenAPI documents "
                    + "(/openapi/partner.json, /openapi/admin.json; docs/openapi.md):\n  "
                    + String.join("\n  ", violations));
        }
    }

    private static boolean reportOnly() {
        return "report".equals(System.getProperty("openapi.drift"));
    }
}
