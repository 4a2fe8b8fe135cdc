package io.paysession.gateway;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** command-side, query-side and webhook-projector never import each other; payment-api imports none of them. */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.paysession");

    @Test
    void theCommandSideImportsNeitherTheQuerySideNorTheWebhookProjector() {
        noClasses().that().resideInAPackage("io.paysession.command..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.paysession.query..", "io.paysession.webhook..", "io.paysession.gateway..")
                .check(CLASSES);
    }

    @Test
    void theQuerySideImportsNeitherTheCommandSideNorTheWebhookProjector() {
        noClasses().that().resideInAPackage("io.paysession.query..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.paysession.command..", "io.paysession.webhook..", "io.paysession.gateway..")
                .check(CLASSES);
    }

    @Test
    void theWebhookProjectorImportsNeitherTheCommandSideNorTheQuerySide() {
        noClasses().that().resideInAPackage("io.paysession.webhook..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.paysession.command..", "io.paysession.query..", "io.paysession.gateway..")
                .check(CLASSES);
    }

    @Test
    void theSharedMessagesDependOnNoModule() {
        noClasses().that().resideInAPackage("io.paysession.api..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.paysession.command..", "io.paysession.query..", "io.paysession.webhook..",
                        "io.paysession.gateway..")
                .check(CLASSES);
    }
}
