package io.paysession.gateway.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The webjars the service's pages load from its own jar ({@code /webjars/<artifact>/<version>/...}). */
public final class Webjars {

    private Webjars() {
    }

    /** The version of a webjar on the class path, as its Maven properties say; fails the start without it. */
    public static String version(String group, String artifact) {
        try (InputStream in = Webjars.class.getResourceAsStream(
                "/META-INF/maven/" + group + "/" + artifact + "/pom.properties")) {
            if (in == null) {
                throw new IllegalStateException("the " + artifact + " webjar is not on the class path");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
