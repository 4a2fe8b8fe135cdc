package io.paysession.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * What the commands get from outside: the environment, the working directory, the streams and an HTTP client. One
 * value, so that the tests run the commands in their own JVM with their own environment.
 */
record Context(Map<String, String> environment, Path workingDirectory, Path home, InputStream in, PrintWriter out,
               PrintWriter err, HttpClient http, Clock clock) {

    static HttpClient newHttpClient() {
        // HTTP/1.1 as partner SDKs speak it
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** A path as the partner typed it: relative to the working directory, {@code ~/} to the home directory. */
    Path resolve(String path) {
        if (path.startsWith("~/")) {
            return home.resolve(path.substring(2));
        }
        return workingDirectory.resolve(path);
    }
}
