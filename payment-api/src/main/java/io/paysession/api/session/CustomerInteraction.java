package io.paysession.api.session;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import java.util.Map;
import java.util.Objects;

/** What the payer must do, shown in {@code customer_interaction}: follow a redirect, or scan a QR code / open a deeplink. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = CustomerInteraction.Redirect.class, name = "redirect"),
        @JsonSubTypes.Type(value = CustomerInteraction.InformQr.class, name = "inform")
})
public sealed interface CustomerInteraction {

    /** {@code redirect {url, base_url, method, qs, params}}: {@code url} is {@code base_url} with {@code qs}. */
    record Redirect(String url, String baseUrl, String method, Map<String, String> qs, Map<String, String> params)
            implements CustomerInteraction {
        public Redirect {
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(baseUrl, "baseUrl");
            Objects.requireNonNull(method, "method");
            qs = Map.copyOf(qs);
            params = Map.copyOf(params);
        }
    }

    /** {@code inform.qr.content}: a deeplink to show as a QR code or to open the issuer's application. */
    record InformQr(String content) implements CustomerInteraction {
        public InformQr {
            Objects.requireNonNull(content, "content");
        }
    }
}
