package io.paysession.gateway.idempotency;

import java.util.regex.Pattern;

/** Which requests take an idempotency key, and what a key looks like (decisions.md section 8). */
final class IdempotentEndpoints {

    static final String HEADER = "X-PARTNER-IDEMPOTENCY-KEY";
    static final String REPLAY_HEADER = "X-PARTNER-IDEMPOTENT-REPLAY";

    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-]{4,64}");
    /** The methods that create or change something; reads, tokens and lists take no key. */
    private static final Pattern TAKES_KEY = Pattern.compile("/api/v[12]/(?:session/(?:create|init/payment|init/payout"
            + "|multi/init|start/payment|start/payout|confirm|cancel|capture|refund)|fps/customer_verification)");

    private IdempotentEndpoints() {
    }

    static boolean isWellFormed(String key) {
        return KEY.matcher(key).matches();
    }

    static boolean takesKey(String method, String path) {
        return "POST".equals(method) && TAKES_KEY.matcher(path).matches();
    }
}
