package io.paysession.gateway.partners;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.paysession.api.partner.FindPartnerQuery;
import io.paysession.api.partner.PartnerView;
import io.paysession.gateway.security.Pem;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Registered partners as the query side knows them, with their public keys parsed once per PEM (the
 * cache is keyed by the PEM text, so a key change takes effect on the next request).
 * <p>
 * The signed requests' look-up ({@link #findForRequest}) keeps a partner for {@code payments.cache.partner-ttl}
 * (1 s): one query a second per partner instead of one per request. A change made on this node is seen by its next
 * request ({@link PartnerRegistration} forgets the partner); one made on another node within that time.
 */
@Component
public class PartnerDirectory {

    private final QueryGateway queries;
    private final Map<String, RSAPublicKey> parsedKeys = new ConcurrentHashMap<>();
    private final Cache<String, PartnerView> recent;

    public PartnerDirectory(QueryGateway queries, @Value("${payments.cache.partner-ttl:1s}") Duration ttl) {
        this.queries = queries;
        this.recent = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(10_000).build();
    }

    /** The partner a signed request names, as it was at most {@code payments.cache.partner-ttl} ago. */
    public Optional<PartnerView> findForRequest(String project) {
        PartnerView known = recent.getIfPresent(project);
        if (known != null) {
            return Optional.of(known);
        }
        Optional<PartnerView> found = find(project);
        found.ifPresent(partner -> recent.put(project, partner));
        return found;
    }

    /** Looks the partner up again at its next request: its settings changed on this node. */
    public void forget(String project) {
        recent.invalidate(project);
    }

    public Optional<PartnerView> find(String project) {
        try {
            return queries.query(new FindPartnerQuery(project), ResponseTypes.optionalInstanceOf(PartnerView.class))
                    .join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    /** The keys the partner's requests verify under: one, or two while it rotates its key. */
    public List<RSAPublicKey> publicKeysOf(PartnerView partner) {
        return partner.settings().publicKeys().stream().map(this::parsed).flatMap(Optional::stream).toList();
    }

    private Optional<RSAPublicKey> parsed(String pem) {
        RSAPublicKey cached = parsedKeys.get(pem);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<RSAPublicKey> parsed = Pem.readRsaPublicKey(pem);
        parsed.ifPresent(key -> parsedKeys.put(pem, key));
        return parsed;
    }
}
