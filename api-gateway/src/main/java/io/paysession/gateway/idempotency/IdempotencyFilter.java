package io.paysession.gateway.idempotency;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.view.SessionView;
import io.paysession.gateway.http.ApiResponses;
import io.paysession.gateway.http.PartnerSignatureFilter;
import io.paysession.gateway.http.RequestMetadata;
import io.paysession.gateway.http.RequestPaths;
import io.paysession.gateway.http.SessionStates;
import io.paysession.gateway.idempotency.IdempotencyStore.KeyRecord;
import io.paysession.gateway.idempotency.SignatureUses.Operation;
import io.paysession.gateway.idempotency.SignatureUses.Signed;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * Decides what a request with {@code X-PARTNER-IDEMPOTENCY-KEY} does, after its signature is verified and before
 * anything reads its body: run (and keep the answer), answer again what the key's request answered, or refuse.
 * See the package documentation for the rules and docs/idempotency.md for the decisions behind them.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public class IdempotencyFilter extends OncePerRequestFilter {

    /**
     * Set by whatever answers a refusal that a retry may not get again (a concurrent change of the session):
     * such an answer is not kept with the key.
     */
    public static final String RETRYABLE_ANSWER = IdempotencyFilter.class.getName() + ".retryable";

    private static final Logger log = LoggerFactory.getLogger(IdempotencyFilter.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A key found expired or purged between the claim and the read is claimed again, at most this often. */
    private static final int CLAIM_ATTEMPTS = 3;

    private final IdempotencyStore store;
    private final SignatureUses signatures;
    private final RequestFingerprint fingerprint;
    private final SessionStates sessions;
    private final IdempotencyProperties properties;
    private final IdempotencyLeases leases;

    public IdempotencyFilter(IdempotencyStore store, SignatureUses signatures, RequestFingerprint fingerprint,
                             SessionStates sessions, IdempotencyProperties properties, IdempotencyLeases leases) {
        this.store = store;
        this.leases = leases;
        this.signatures = signatures;
        this.fingerprint = fingerprint;
        this.sessions = sessions;
        this.properties = properties;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !PartnerSignatureFilter.isPartnerApi(RequestPaths.of(request));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String key = request.getHeader(IdempotentEndpoints.HEADER);
        String path = RequestPaths.of(request);
        // set with the partner by the signature filter; absent only on the widget's unsigned tokenization
        Signed signed = request.getAttribute(SignatureUses.ATTRIBUTE) instanceof Signed verified ? verified : null;
        Optional<Operation> remembered = signed == null ? Optional.empty()
                : SignatureUses.remembered(request.getMethod(), path);
        if (key == null) {
            if (remembered.isEmpty()) {
                chain.doFilter(request, response);
            } else {
                runWithoutKey(signed, remembered.get(), request, response, chain);
            }
            return;
        }
        if (!IdempotentEndpoints.isWellFormed(key)) {
            ApiResponses.writeError(response, 400, ErrorCode.INVALID_REQUEST, IdempotentEndpoints.HEADER
                    + " must be 4 to 64 characters of A-Z, a-z, 0-9, '_' and '-'");
            return;
        }
        // without a verified partner this is the widget's unsigned tokenization, which takes no key either
        if (!(request.getAttribute(PartnerSignatureFilter.PARTNER_ATTRIBUTE) instanceof PartnerView partner)
                || !IdempotentEndpoints.takesKey(request.getMethod(), path)) {
            ApiResponses.writeError(response, 400, ErrorCode.IDEMPOTENCY_KEY_NOT_SUPPORTED,
                    "This method takes no " + IdempotentEndpoints.HEADER);
            return;
        }
        Request incoming = new Request(partner.project(), key, request.getMethod(), path,
                request.getHeader("X-PARTNER-SUBMERCHANT"), RequestFingerprint.canonicalBody(request),
                RequestMetadata.requestId(request));
        try {
            decide(incoming, signed, remembered.orElse(null), request, response, chain);
        } catch (DataAccessException e) {
            unavailable(response, e, "; retry with the same key");
        }
    }

    private record Request(String project, String key, String method, String path, String submerchant,
                           byte[] canonicalBody, String requestId) {
        String endpoint() {
            return method + " " + path;
        }
    }

    /**
     * A state-changing request without a key runs only on the first use of its signature for its operation; a
     * failure of the service forgets that use again, so that the partner's retry of the same body may run.
     */
    private void runWithoutKey(Signed signed, Operation operation, HttpServletRequest request,
                               HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
        String requestId = RequestMetadata.requestId(request);
        try {
            if (!signatures.claimWithoutKey(signed, operation, requestId, properties.lifetime())) {
                refuseSignature(signed, operation, requestId, response);
                return;
            }
        } catch (DataAccessException e) {
            unavailable(response, e, "; retry");
            return;
        }
        boolean answered = false;
        try {
            chain.doFilter(request, response);
            answered = true;
        } finally {
            if (!answered || response.getStatus() >= 500 || request.getAttribute(RETRYABLE_ANSWER) != null) {
                try {
                    signatures.release(signed, operation, requestId);
                } catch (DataAccessException e) {
                    log.warn("The signature of failed request {} stays used: {}", requestId, e.toString());
                }
            }
        }
    }

    private void refuseSignature(Signed signed, Operation operation, String requestId, HttpServletResponse response)
            throws IOException {
        log.warn("Refused request {} of {} to {}: its signed body was already sent", requestId, signed.project(),
                operation.name());
        ApiResponses.writeError(response, 401, ErrorCode.AUTHENTICATION_ERROR, SignatureUses.REFUSAL);
    }

    private static void unavailable(HttpServletResponse response, DataAccessException e, String advice)
            throws IOException {
        log.warn("Idempotency store unavailable: {}", e.toString());
        if (!response.isCommitted()) {
            response.reset();
            ApiResponses.writeError(response, 503, ErrorCode.SERVICE_UNAVAILABLE,
                    "The service is temporarily unavailable" + advice);
        }
    }

    private void decide(Request incoming, Signed signed, Operation operation, HttpServletRequest request,
                        HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
        String hash = fingerprint.of(incoming.method(), incoming.path(), incoming.submerchant(),
                incoming.canonicalBody());
        // the first claim records the signature too; once its use under this very key is found, the key decides
        boolean withSignature = signed != null && operation != null;
        for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
            boolean claimed;
            if (withSignature) {
                IdempotencyStore.Claim claim;
                try {
                    claim = store.claim(incoming.project(), incoming.key(), hash, fingerprint.activeKeyId(),
                            incoming.endpoint(), incoming.requestId(), properties.lease(), properties.lifetime(),
                            signed, operation);
                } catch (DuplicateKeyException e) {
                    signatures.forgetExpired(signed); // a concurrent first use, or a forgotten one in the way
                    continue;
                }
                if (claim.signatureUsed()) {
                    Optional<SignatureUses.Use> earlier = signatures.earlierUse(signed, operation);
                    if (earlier.isEmpty()) {
                        continue; // forgotten in between: claim both again
                    }
                    if (SignatureUses.allows(earlier.get(), incoming.key())) {
                        withSignature = false;
                        attempt--;
                        continue;
                    }
                    // refused, unless the key itself answers (a replay or a refusal: nothing runs)
                    Optional<KeyRecord> found = store.find(incoming.project(), incoming.key());
                    if (found.isEmpty() || found.get().expired()) {
                        refuseSignature(signed, operation, incoming.requestId(), response);
                    } else {
                        answerFromKey(incoming, found.get(), hash, false, request, response, chain);
                    }
                    return;
                }
                claimed = claim.keyClaimed();
            } else {
                claimed = store.claim(incoming.project(), incoming.key(), hash, fingerprint.activeKeyId(),
                        incoming.endpoint(), incoming.requestId(), properties.lease(), properties.lifetime());
            }
            if (claimed) {
                run(new IdempotencyClaim(incoming.project(), incoming.key(), incoming.endpoint(), incoming.requestId(),
                        null, null), request, response, chain);
                return;
            }
            Optional<KeyRecord> found = store.find(incoming.project(), incoming.key());
            if (found.isEmpty() || found.get().expired()) {
                continue;
            }
            answerFromKey(incoming, found.get(), hash, true, request, response, chain);
            return;
        }
        ApiResponses.writeError(response, 400, ErrorCode.IDEMPOTENCY_KEY_ALREADY_EXISTS,
                "The idempotency key is changing hands; retry later with the same key");
    }

    /**
     * The key is another request's: its answer again, a mismatch, or a refusal while it runs; with {@code mayRun},
     * a key whose owner died is taken over and its request recovered or run.
     */
    private void answerFromKey(Request incoming, KeyRecord record, String hash, boolean mayRun,
                               HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!sameRequest(record, incoming, hash)) {
            refuse(incoming, record, IdempotencyDecision.PARAMS_MISMATCH, response,
                    ErrorCode.IDEMPOTENCY_KEY_PARAMS_MISMATCH,
                    "The idempotency key was already used for another request");
            return;
        }
        if (record.completed()) {
            store.record(incoming.project(), incoming.key(), IdempotencyDecision.REPLAY, incoming.requestId(),
                    record.ownerRequestId(), incoming.endpoint(), record.sessionId(), record.responseStatus());
            replay(response, record.responseStatus(), record.responseContentType(), record.responseBody());
            return;
        }
        if (!mayRun || !record.leaseExpired() || !store.takeOver(incoming.project(), incoming.key(),
                record.ownerRequestId(), incoming.requestId(), properties.lease())) {
            refuse(incoming, record, IdempotencyDecision.ALREADY_RUNNING, response,
                    ErrorCode.IDEMPOTENCY_KEY_ALREADY_EXISTS,
                    "A request with this idempotency key is still in progress; retry later with the same key");
            return;
        }
        if (!recovered(incoming, record, response)) {
            run(new IdempotencyClaim(incoming.project(), incoming.key(), incoming.endpoint(), incoming.requestId(),
                    record.ownerRequestId(), record.sessionId()), request, response, chain);
        }
    }

    private boolean sameRequest(KeyRecord record, Request incoming, String activeHash) {
        Optional<String> hash = record.hashKeyId().equals(fingerprint.activeKeyId()) ? Optional.of(activeHash)
                : fingerprint.of(record.hashKeyId(), incoming.method(), incoming.path(), incoming.submerchant(),
                incoming.canonicalBody());
        return hash.isPresent() && MessageDigest.isEqual(hash.get().getBytes(StandardCharsets.US_ASCII),
                record.requestHash().getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The key's request died with its node (its lease ran out) and this request took the key over. If the dead
     * request's command reached the event store, its answer is the session as its events left it; otherwise
     * nothing of it remains, and this request runs in its place.
     */
    private boolean recovered(Request incoming, KeyRecord dead, HttpServletResponse response) throws IOException {
        if (dead.sessionId() == null) {
            return false;
        }
        Optional<SessionView> view = SessionId.parse(dead.sessionId())
                .flatMap(session -> sessions.stateAfterRequest(session, dead.ownerRequestId()));
        if (view.isEmpty()) {
            return false;
        }
        ApiVersion version = ApiVersion.parse(incoming.path().substring("/api/".length(), "/api/v1".length()))
                .orElseThrow();
        byte[] body = JSON.writeValueAsBytes(ApiResponses.session(view.get(), version).getBody());
        store.complete(incoming.project(), incoming.key(), incoming.requestId(), 200, MediaType.APPLICATION_JSON_VALUE,
                body);
        store.record(incoming.project(), incoming.key(), IdempotencyDecision.RECOVERED, incoming.requestId(),
                dead.ownerRequestId(), incoming.endpoint(), dead.sessionId(), 200);
        replay(response, 200, MediaType.APPLICATION_JSON_VALUE, body);
        return true;
    }

    /** Runs the request as the key's owner and keeps its answer, unless the service failed and a retry may do better. */
    private void run(IdempotencyClaim claim, HttpServletRequest request, HttpServletResponse response,
                     FilterChain chain) throws ServletException, IOException {
        claim.attachTo(request);
        ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
        boolean answered = false;
        leases.hold(claim);
        try {
            chain.doFilter(request, answer);
            answered = true;
        } finally {
            int status = answer.getStatus();
            leases.release(claim);
            if (answered && status < 500 && request.getAttribute(RETRYABLE_ANSWER) == null) {
                keep(claim, status, answer.getContentType(), answer.getContentAsByteArray());
            } else {
                giveUp(claim);
            }
            answer.copyBodyToResponse();
        }
    }

    private void keep(IdempotencyClaim claim, int status, String contentType, byte[] body) {
        try {
            if (store.complete(claim.project, claim.key, claim.requestId, status, contentType, body)) {
                store.record(claim.project, claim.key, IdempotencyDecision.FIRST_USE, claim.requestId,
                        claim.abandonedBy, claim.endpoint, claim.sessionId, status);
            } else {
                log.warn("Request {} lost idempotency key {} of {} before its answer was kept", claim.requestId,
                        claim.key, claim.project);
            }
        } catch (DataAccessException e) {
            // the lease runs out, and the next request with the key rebuilds this answer from the event store
            log.warn("The answer of request {} was not kept with its idempotency key: {}", claim.requestId,
                    e.toString());
        }
    }

    private void giveUp(IdempotencyClaim claim) {
        try {
            store.abandon(claim.project, claim.key, claim.requestId);
        } catch (DataAccessException e) {
            log.warn("Idempotency key {} of request {} is held until its lease runs out: {}", claim.key,
                    claim.requestId, e.toString());
        }
    }

    private void refuse(Request incoming, KeyRecord record, IdempotencyDecision decision,
                        HttpServletResponse response, ErrorCode code, String description) throws IOException {
        store.record(incoming.project(), incoming.key(), decision, incoming.requestId(), record.ownerRequestId(),
                incoming.endpoint(), record.sessionId(), code.httpStatus());
        ApiResponses.writeError(response, code.httpStatus(), code, description);
    }

    private static void replay(HttpServletResponse response, int status, String contentType, byte[] body)
            throws IOException {
        response.setStatus(status);
        if (contentType != null) {
            response.setContentType(contentType);
        }
        response.setHeader(IdempotentEndpoints.REPLAY_HEADER, "true");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
