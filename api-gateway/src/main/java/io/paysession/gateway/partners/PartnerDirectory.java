package io.paysession.gateway.partners;

import io.paysession.api.partner.FindPartnerQuery;
import io.paysession.api.partner.PartnerView;
import io.paysession.gateway.security.Pem;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.stereotype.Component;

import java.security.interfaces.RSAPublicKey;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Registered partners as the query side knows them, with their public keys parsed once per PEM (the
 * cache is keyed by the PEM text, so a key change takes effect on the next request).
 */
@Component
public class PartnerDirectory {

    private final QueryGateway queries;
    private final Map<String, RSAPublicKey> parsedKeys = new ConcurrentHashMap<>();

    public PartnerDirectory(QueryGateway queries) {
        this.queries = queries;
    }

    public Optional<PartnerView> find(String project) {
        try {
            return queries.query(new FindPartnerQuery(project), ResponseTypes.optionalInstanceOf(PartnerView.class))
                    .join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    public Optional<RSAPublicKey> publicKeyOf(PartnerView partner) {
        String pem = partner.settings().publicKeyPem();
        RSAPublicKey cached = parsedKeys.get(pem);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<RSAPublicKey> parsed = Pem.readRsaPublicKey(pem);
        parsed.ifPresent(key -> parsedKeys.put(pem, key));
        return parsed;
    }
}
