package io.paysession.gateway.support;

import com.samskivert.mustache.Mustache;
import org.springframework.boot.autoconfigure.mustache.MustacheResourceTemplateLoader;

/** The service's Mustache templates for tests that build a page controller without Spring. */
public final class Templates {

    private Templates() {
    }

    /** A compiler loading {@code classpath:/templates/*.mustache}, as Spring Boot's auto-configured one does. */
    public static Mustache.Compiler compiler() {
        return Mustache.compiler().withLoader(new MustacheResourceTemplateLoader("classpath:/templates/", ".mustache"));
    }
}
