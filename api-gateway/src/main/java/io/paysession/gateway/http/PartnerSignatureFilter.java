package io.paysession.gateway.http;

import io.paysession.api.error.ErrorCode;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.partner.PartnerView;
import io.paysession.gateway.idempotency.SignatureUses;
import io.paysession.gateway.partners.PartnerDirectory;
import io.paysession.gateway.security.RsaSignatures;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.interfaces.RSAPublicKey;
import java.util.List;
import java.util.Optional;

/**
 * Authenticates every partner request ({@code /api/**}, {@code /cds/**}) before anything parses it: the
 * raw body (at most 64 KiB) must carry a valid {@code X-PARTNER-SIGN} by the key registered for
 * {@code X-PARTNER-PROJECT}. An unknown or missing project is 403 {@code authorization_error}; a
 * missing or wrong signature of a known project is 401 {@code authentication_error}; a body of another
 * type than JSON is 415. Nothing reads the body as JSON before its signature is verified. The one exception is
 * {@value #PUBLIC_TOKEN_PATH}: the card-tokenizer widget calls it from a payer's browser, where no partner key
 * can be, and the public token it carries authenticates it instead ({@code TokenController}); and so do the
 * widgets' calls, {@link #WIDGET_PATHS} ({@code AcquiringWidgetController}, {@code FpsPayoutWidgetController}).
 * <p>
 * The verification handles no secret: the key is the partner's public key, and the body and the signature
 * come from the request, so how long it takes tells a caller nothing it does not already have. The one
 * secret at this door, the set of registered projects, is answered by design (403 vs 401).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class PartnerSignatureFilter extends OncePerRequestFilter {

    public static final String PARTNER_ATTRIBUTE = PartnerSignatureFilter.class.getName() + ".partner";
    public static final String BODY_ATTRIBUTE = PartnerSignatureFilter.class.getName() + ".body";
    public static final int MAX_BODY_BYTES = RequestBodies.MAX_BYTES;
    /** Exempt from partner signatures, exactly this path and nothing below or beside it. */
    public static final String PUBLIC_TOKEN_PATH = "/cds/v1/tokenize/card";
    /** The widgets' calls from a payer's browser, with their public tokens: exactly these paths. */
    public static final String ACQUIRING_SESSION_PATH = "/cds/v1/acquiring/session";
    public static final String ACQUIRING_PAY_PATH = "/cds/v1/acquiring/pay";
    public static final String FPS_PAYOUT_SESSION_PATH = "/cds/v1/fps-payout/session";
    public static final String FPS_PAYOUT_START_PATH = "/cds/v1/fps-payout/start";
    public static final java.util.Set<String> WIDGET_PATHS = java.util.Set.of(ACQUIRING_SESSION_PATH,
            ACQUIRING_PAY_PATH, FPS_PAYOUT_SESSION_PATH, FPS_PAYOUT_START_PATH);
    /** PHP SDKs sign {@code []} for requests without fields (a GET of the bank list) and may send no body. */
    private static final byte[] EMPTY_SDK_BODY = "[]".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final PartnerDirectory partners;
    /** Whether the sandbox's partner calls ({@code /sandbox/v1/*}) are served: then they are signed like the rest. */
    private final boolean sandboxApi;

    public PartnerSignatureFilter(PartnerDirectory partners, ObjectProvider<SandboxClockController> sandboxApi) {
        this.partners = partners;
        this.sandboxApi = sandboxApi.getIfAvailable() != null;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // the normalized path (NormalPathFilter refuses any other), its prefixes in any case
        String path = RequestPaths.of(request);
        boolean signed = isPartnerApi(path) || sandboxApi && RequestPaths.isUnder(path, SandboxClockController.PREFIX);
        return !signed || path.equals(PUBLIC_TOKEN_PATH) || WIDGET_PATHS.contains(path);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        // every answer, refusals included, names the request, so a partner can quote it to support
        response.setHeader("X-Request-Id", RequestMetadata.requestId(request));
        if (request.getContentLengthLong() > RequestBodies.MAX_BYTES) {
            refuse(response, 413, ErrorCode.INVALID_REQUEST, RequestBodies.TOO_LARGE);
            return;
        }
        // the project before the body: a caller that names no registered project gets its 403 with the body unread
        String project = request.getHeader("X-PARTNER-PROJECT");
        Optional<PartnerView> partner = project == null || !PartnerId.PROJECT.matcher(project).matches()
                ? Optional.empty()
                : partners.findForRequest(project);
        if (partner.isEmpty()) {
            refuse(response, 403, ErrorCode.AUTHORIZATION_ERROR,
                    project == null ? "X-PARTNER-PROJECT is required" : "Unknown project");
            return;
        }
        Optional<byte[]> read = RequestBodies.readAtMostTheLimit(request);
        if (read.isEmpty()) {
            refuse(response, 413, ErrorCode.INVALID_REQUEST, RequestBodies.TOO_LARGE);
            return;
        }
        byte[] body = read.get();
        List<RSAPublicKey> keys = partners.publicKeysOf(partner.get());
        String signature = request.getHeader("X-PARTNER-SIGN");
        if (signature == null || signature.isBlank()) {
            refuse(response, 401, ErrorCode.AUTHENTICATION_ERROR, "X-PARTNER-SIGN is required");
            return;
        }
        // under either key while the partner rotates (docs/security.md)
        if (keys.stream().noneMatch(key -> RsaSignatures.verify(key, body, signature)
                || body.length == 0 && RsaSignatures.verify(key, EMPTY_SDK_BODY, signature))) {
            refuse(response, 401, ErrorCode.AUTHENTICATION_ERROR,
                    "X-PARTNER-SIGN is not a valid signature of the body by the project's key");
            return;
        }
        if (body.length > 0 && !isJson(request.getContentType())) {
            refuse(response, 415, ErrorCode.INVALID_REQUEST,
                    "Content-Type must be application/json (UTF-8) for a request with a body");
            return;
        }
        request.setAttribute(PARTNER_ATTRIBUTE, partner.get());
        request.setAttribute(BODY_ATTRIBUTE, body);
        // what a replay is recognised by (IdempotencyFilter); verified above, so it decodes
        RsaSignatures.decode(signature).ifPresent(bytes -> SignatureUses.Signed.of(project, bytes).attachTo(request));
        chain.doFilter(new CachedBodyRequest(request, body), response);
    }

    /** Whether a request to {@code path} is a partner's, signed with its key (bar {@link #PUBLIC_TOKEN_PATH}). */
    public static boolean isPartnerApi(String path) {
        return RequestPaths.isUnder(path, "/api") || RequestPaths.isUnder(path, "/cds");
    }

    /**
     * {@code application/json}, with parameters, in any case; a missing type is taken as JSON because some
     * partner HTTP clients send none. A charset other than UTF-8 is refused: JSON on the wire is UTF-8.
     */
    public static boolean isJson(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return true;
        }
        MediaType type;
        try {
            type = MediaType.parseMediaType(contentType);
        } catch (InvalidMediaTypeException e) {
            return false;
        }
        if (!MediaType.APPLICATION_JSON.equalsTypeAndSubtype(type)) {
            return false;
        }
        String charset = type.getParameter("charset");
        return charset == null || charset.replace("\"", "").equalsIgnoreCase("utf-8");
    }

    private void refuse(HttpServletResponse response, int status, ErrorCode code, String description)
            throws IOException {
        ApiResponses.writeError(response, status, code, description);
    }

    /** The request with its body already read, for anything downstream that reads the stream again. */
    private static final class CachedBodyRequest extends HttpServletRequestWrapper {
        private final byte[] body;

        CachedBodyRequest(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream input = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return input.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public int read() {
                    return input.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return input.read(buffer, offset, length);
                }
            };
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
