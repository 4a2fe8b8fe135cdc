package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import jakarta.servlet.http.HttpServletRequest;

/**
 * A request made for a submerchant ({@code X-PARTNER-SUBMERCHANT}) carries {@code metadata} with the
 * keys {@code merchant} and {@code submerchant} (the latter holding the payment site's address).
 */
final class Submerchants {

    static final String HEADER = "X-PARTNER-SUBMERCHANT";

    private Submerchants() {
    }

    static void check(HttpServletRequest request, ObjectNode body) {
        String submerchant = request.getHeader(HEADER);
        if (submerchant == null || submerchant.isBlank()) {
            return;
        }
        JsonNode metadata = body.get("metadata");
        if (metadata == null || !metadata.isObject() || !metadata.hasNonNull("merchant")
                || !metadata.hasNonNull("submerchant")) {
            throw PaymentsException.invalidRequest(
                    "metadata with merchant and submerchant is required when X-PARTNER-SUBMERCHANT is sent");
        }
    }
}
