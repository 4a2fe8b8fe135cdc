package io.paysession.gateway;

import io.paysession.gateway.support.RawHttp;
import io.paysession.gateway.support.RawHttp.RawAnswer;
import io.paysession.gateway.support.TestPartner;
import io.paysession.gateway.support.TestServiceProperties;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

/**
 * Paths written so that the container, the filters and the handler mappings could read them differently
 * ({@code ;} path parameters, percent escapes, {@code .}/{@code ..} segments, {@code //}, a backslash, another case,
 * a trailing slash), sent byte for byte to every protected prefix without credentials: none may be answered by a
 * protected handler. The same requests in normal form with credentials are answered 200, so each target is real.
 */
class PathTricksEndToEndTest extends EndToEndTestBase {

    private static final byte[] CARD_ELEMENTS = """
            {"card_elements":[{"ref":"c","type":"card_number","card_number":"4242424242424242"}]}"""
            .getBytes(StandardCharsets.UTF_8);

    /** A protected request: method, path in normal form, body, and the headers that authenticate it. */
    private record Target(String method, String path, byte[] body, Map<String, String> credentials) {
    }

    /** Tricks that leave the path out of normal form: refused before any filter or handler, 400 invalid_request. */
    private static final Map<String, UnaryOperator<String>> NOT_NORMAL = new LinkedHashMap<>();
    /** Tricks that keep the path normal but change how it is written: the filters must still apply. */
    private static final Map<String, UnaryOperator<String>> STILL_NORMAL = new LinkedHashMap<>();

    static {
        NOT_NORMAL.put("path parameter on the prefix", path -> firstSegment(path) + ";x=1" + afterFirstSegment(path));
        NOT_NORMAL.put("empty path parameter", path -> firstSegment(path) + ";" + afterFirstSegment(path));
        NOT_NORMAL.put("path parameter at the end", path -> path + ";x=1");
        NOT_NORMAL.put("escaped first letter (%61)", path -> "/%" + Integer.toHexString(path.charAt(1))
                + path.substring(2));
        NOT_NORMAL.put("escaped first letter, upper-case hex", path -> "/%" + Integer.toHexString(path.charAt(1))
                .toUpperCase() + path.substring(2));
        NOT_NORMAL.put("escaped dot segment (%2e)", path -> firstSegment(path) + "/%2e" + afterFirstSegment(path));
        NOT_NORMAL.put("escaped dot-dot segment (%2e%2e)", path -> "/x/%2e%2e" + path);
        NOT_NORMAL.put("escaped dot-dot, upper-case (%2E%2E)", path -> "/x/%2E%2E" + path);
        NOT_NORMAL.put("dot segment", path -> "/." + path);
        NOT_NORMAL.put("dot-dot segment", path -> "/x/.." + path);
        NOT_NORMAL.put("dot-dot with a path parameter", path -> "/x/..;" + path);
        NOT_NORMAL.put("double slash in front", path -> "/" + path);
        NOT_NORMAL.put("double slash inside", path -> firstSegment(path) + "/" + afterFirstSegment(path));
        NOT_NORMAL.put("escaped slash (%2f)", path -> firstSegment(path) + "%2f" + afterFirstSegment(path).substring(1));
        NOT_NORMAL.put("backslash", path -> firstSegment(path) + "\\" + afterFirstSegment(path).substring(1));
        NOT_NORMAL.put("escaped backslash (%5c)", path -> firstSegment(path) + "%5c" + afterFirstSegment(path).substring(1));
        STILL_NORMAL.put("upper case", String::toUpperCase);
        STILL_NORMAL.put("prefix capitalized", path -> "/" + Character.toUpperCase(path.charAt(1)) + path.substring(2));
        STILL_NORMAL.put("trailing slash", path -> path + "/");
    }

    @Test
    void noTrickReachesAProtectedHandlerWithoutItsCredentials() {
        TestPartner partner = registeredPartner("path-tricks");
        List<Target> targets = targets(partner);
        // the targets are real: in normal form, with credentials 200, without them refused
        for (Target target : targets) {
            RawAnswer authenticated = send(target, target.path(), target.credentials());
            assertThat(authenticated.status()).as(target.path() + " with credentials: " + authenticated).isEqualTo(200);
            RawAnswer anonymous = send(target, target.path(), Map.of());
            assertThat(anonymous.status()).as(target.path() + " without credentials: " + anonymous).isIn(401, 403);
        }
        assertSoftly(softly -> {
            for (Target target : targets) {
                NOT_NORMAL.forEach((trick, apply) -> {
                    String path = apply.apply(target.path());
                    RawAnswer answer = send(target, path, Map.of());
                    softly.assertThat(answer.status()).as(trick + ": " + target.method() + " " + path + " -> " + answer)
                            .isEqualTo(400);
                    softly.assertThat(answer.errorCode()).as(trick + ": " + path + " -> " + answer)
                            .isEqualTo("invalid_request");
                });
                STILL_NORMAL.forEach((trick, apply) -> {
                    String path = apply.apply(target.path());
                    RawAnswer answer = send(target, path, Map.of());
                    softly.assertThat(answer.status()).as(trick + ": " + target.method() + " " + path + " -> " + answer)
                            .isIn(401, 403, 404);
                    softly.assertThat(answer.errorCode()).as(trick + ": " + path + " -> " + answer).isNotNull();
                });
            }
        });
    }

    @Test
    void theUnsignedWidgetPathLeadsNowhereElse() {
        Target elements = new Target("POST", "/cds/v1/tokenize/elements", CARD_ELEMENTS, Map.of());
        List<String> paths = List.of(
                "/cds/v1/tokenize/card/../elements",
                "/cds/v1/tokenize/card/%2e%2e/elements",
                "/cds/v1/tokenize/card;/../elements",
                "/cds/v1/tokenize/card/..;/elements",
                "/cds/v1/tokenize/card%2f..%2felements",
                "/cds/v1/tokenize/card/",
                "/cds/v1/tokenize/card;x=1",
                "/CDS/v1/tokenize/card");
        assertSoftly(softly -> {
            for (String path : paths) {
                RawAnswer answer = send(elements, path, Map.of("Content-Type", "application/json"));
                softly.assertThat(answer.status()).as(path + " -> " + answer).isIn(400, 401, 403, 404);
                softly.assertThat(answer.body().path("status").asText()).as(path + " -> " + answer).isEqualTo("error");
                softly.assertThat(answer.text()).as(path).doesNotContain("card_");
            }
        });
    }

    private List<Target> targets(TestPartner partner) {
        byte[] empty = new byte[0];
        Map<String, String> signedEmpty = Map.of("X-PARTNER-PROJECT", partner.project(),
                "X-PARTNER-SIGN", partner.sign(empty));
        Map<String, String> admin = Map.of("Authorization", "Bearer " + TestServiceProperties.ADMIN_TOKEN);
        List<Target> targets = new ArrayList<>();
        targets.add(new Target("GET", "/api/v1/fps/banks", empty, signedEmpty));
        targets.add(new Target("GET", "/api/v2/fps/banks", empty, signedEmpty));
        targets.add(new Target("POST", "/cds/v1/tokenize/elements", CARD_ELEMENTS, Map.of(
                "X-PARTNER-PROJECT", partner.project(), "X-PARTNER-SIGN", partner.sign(CARD_ELEMENTS),
                "Content-Type", "application/json")));
        targets.add(new Target("GET", "/admin/v1/partners/" + partner.project(), empty, admin));
        targets.add(new Target("GET", "/actuator/metrics", empty, admin));
        return targets;
    }

    private RawAnswer send(Target target, String path, Map<String, String> headers) {
        return RawHttp.send(port, target.method(), path, headers, target.body());
    }

    private static String firstSegment(String path) {
        int end = path.indexOf('/', 1);
        return path.substring(0, end);
    }

    private static String afterFirstSegment(String path) {
        return path.substring(path.indexOf('/', 1));
    }
}
