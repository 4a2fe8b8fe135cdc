package io.paysession.gateway.http.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.partner.PartnerSettings;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.wire.WireFormat;
import io.paysession.gateway.http.ApiResponses;
import io.paysession.gateway.http.Fields;
import io.paysession.gateway.http.HttpException;
import io.paysession.gateway.http.JsonBodies;
import io.paysession.gateway.http.RequestBodies;
import io.paysession.gateway.partners.PartnerDirectory;
import io.paysession.gateway.partners.PartnerRegistration;
import io.paysession.gateway.security.AdminToken;
import io.paysession.gateway.security.Pem;
import io.paysession.gateway.security.ServiceKeyStore;
import io.paysession.gateway.security.Sha256;
import io.paysession.webhook.delivery.WebhookDestinations;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.net.URI;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Partner registration (decisions.md section 3): {@code POST /admin/v1/partners} registers,
 * {@code PUT /admin/v1/partners/{project}} changes the fields it gives, {@code GET} reads. Bearer admin token.
 */
@RestController
@RequestMapping("/admin/v1/partners")
public class AdminPartnerController {

    /** Partners' keys: 2048 bits at least (decisions.md section 3), 8192 at most. */
    static final int MAX_KEY_BITS = 8192;
    static final int MAX_URL_LENGTH = 2048;

    private final AdminToken adminToken;
    private final PartnerRegistration registration;
    private final PartnerDirectory directory;
    private final ServiceKeyStore serviceKey;
    private final WebhookDestinations webhookDestinations;

    public AdminPartnerController(AdminToken adminToken, PartnerRegistration registration,
                                  PartnerDirectory directory, ServiceKeyStore serviceKey,
                                  WebhookDestinations webhookDestinations) {
        this.adminToken = adminToken;
        this.registration = registration;
        this.directory = directory;
        this.serviceKey = serviceKey;
        this.webhookDestinations = webhookDestinations;
    }

    @PostMapping
    public ResponseEntity<ObjectNode> register(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                               HttpServletRequest request) throws IOException {
        requireAdmin(authorization);
        ObjectNode body = body(request);
        String project = Fields.requiredText(body, "project", "");
        requireProjectName(project);
        PartnerSettings settings = new PartnerSettings(
                publicKey(body).orElseThrow(() -> Fields.missing("public_key")),
                webhookUrl(body).orElseThrow(() -> Fields.missing("webhook_url")),
                captureMode(body).orElse(CaptureMode.AUTO),
                fees(body).orElse(FeeSchedule.NONE),
                flag(body, "bank_account_ru_token").orElse(false),
                flag(body, "payout_from_balance").orElse(false));
        PartnerView partner = registration.register(project, settings);
        return ResponseEntity.created(URI.create("/admin/v1/partners/" + project))
                .contentType(MediaType.APPLICATION_JSON).body(render(partner));
    }

    @PutMapping("/{project}")
    public ResponseEntity<ObjectNode> update(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                             @PathVariable String project,
                                             HttpServletRequest request) throws IOException {
        requireAdmin(authorization);
        PartnerView current = existing(project);
        ObjectNode body = body(request);
        PartnerSettings was = current.settings();
        // a public_key given replaces the partner's keys (both, during a rotation); none keeps them
        List<String> keys = publicKey(body).map(List::of).orElse(was.publicKeys());
        PartnerSettings settings = new PartnerSettings(
                keys.get(0),
                webhookUrl(body).orElse(was.webhookUrl()),
                captureMode(body).orElse(was.captureMode()),
                fees(body).orElse(was.fees()),
                flag(body, "bank_account_ru_token").orElse(was.bankAccountToken()),
                flag(body, "payout_from_balance").orElse(was.payoutFromBalance()),
                keys.size() > 1 ? keys.get(1) : null);
        return AdminAnswers.ok(render(registration.update(project, settings)));
    }

    /**
     * A second key, for a partner rotating its own: its requests verify under either until the old one is removed.
     * The same key again changes nothing; a third is refused.
     */
    @PostMapping("/{project}/public-keys")
    public ResponseEntity<ObjectNode> addKey(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                             @PathVariable String project,
                                             HttpServletRequest request) throws IOException {
        requireAdmin(authorization);
        PartnerView current = existing(project);
        String added = publicKey(body(request)).orElseThrow(() -> Fields.missing("public_key"));
        List<String> keys = new ArrayList<>(current.settings().publicKeys());
        if (keys.stream().anyMatch(key -> keyId(key).equals(keyId(added)))) {
            return AdminAnswers.ok(render(current));
        }
        if (keys.size() >= PartnerSettings.MAX_PUBLIC_KEYS) {
            throw PaymentsException.invalidRequest("The partner has " + PartnerSettings.MAX_PUBLIC_KEYS
                    + " public keys already: remove the one it no longer signs with first");
        }
        keys.add(added);
        return AdminAnswers.ok(render(registration.update(project, current.settings().withPublicKeys(keys))));
    }

    /** Removes a key, once the partner signs with the other: its requests no longer verify under it. */
    @DeleteMapping("/{project}/public-keys/{keyId}")
    public ResponseEntity<ObjectNode> removeKey(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                                @PathVariable String project, @PathVariable String keyId) {
        requireAdmin(authorization);
        PartnerView current = existing(project);
        List<String> keys = current.settings().publicKeys();
        List<String> kept = keys.stream().filter(key -> !keyId(key).equals(keyId)).toList();
        if (kept.size() == keys.size()) {
            throw new HttpException(404, ErrorCode.INVALID_REQUEST, "The partner has no public key " + keyId);
        }
        if (kept.isEmpty()) {
            throw PaymentsException.invalidRequest("A partner's only public key cannot be removed: add its next one first");
        }
        return AdminAnswers.ok(render(registration.update(project, current.settings().withPublicKeys(kept))));
    }

    /** A key's id: the first 16 hex digits of the SHA-256 of its DER encoding (SubjectPublicKeyInfo). */
    static String keyId(String pem) {
        return Pem.readRsaPublicKey(pem)
                .map(key -> HexFormat.of().formatHex(Sha256.of(key.getEncoded())).substring(0, 16))
                .orElse("unreadable");
    }

    @GetMapping("/{project}")
    public ResponseEntity<ObjectNode> read(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                           @PathVariable String project) {
        requireAdmin(authorization);
        return AdminAnswers.ok(render(existing(project)));
    }

    /** Read only once the token is checked, through the 64 KiB limit of every body. */
    private static ObjectNode body(HttpServletRequest request) throws IOException {
        return JsonBodies.readObject(RequestBodies.readOrRefuse(request));
    }

    private PartnerView existing(String project) {
        requireProjectName(project);
        return directory.find(project).orElseThrow(() ->
                new HttpException(404, ErrorCode.INVALID_REQUEST, "Project " + project + " is not registered"));
    }

    private void requireAdmin(String authorization) {
        if (!adminToken.accepts(authorization)) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "A valid admin bearer token is required");
        }
    }

    private static void requireProjectName(String project) {
        if (!PartnerId.PROJECT.matcher(project).matches()) {
            throw PaymentsException.invalidRequest(
                    "project must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
    }

    private static Optional<String> publicKey(JsonNode body) {
        return Fields.text(body, "public_key", "").map(pem -> {
            RSAPublicKey key = Pem.readRsaPublicKey(pem).orElseThrow(() ->
                    PaymentsException.invalidRequest("public_key must be an RSA public key in PEM"));
            if (key.getModulus().bitLength() < 2048) {
                throw PaymentsException.invalidRequest("public_key must have at least 2048 bits");
            }
            // every request of the partner is verified with it: a huge modulus makes each verification costly
            if (key.getModulus().bitLength() > MAX_KEY_BITS) {
                throw PaymentsException.invalidRequest("public_key must have at most " + MAX_KEY_BITS + " bits");
            }
            return pem.trim() + "\n";
        });
    }

    private Optional<String> webhookUrl(JsonNode body) {
        return Fields.text(body, "webhook_url", "").map(url -> {
            if (url.length() > MAX_URL_LENGTH) {
                throw PaymentsException.invalidRequest("webhook_url must be at most " + MAX_URL_LENGTH + " characters");
            }
            try {
                URI uri = URI.create(url);
                if (!uri.isAbsolute() || uri.getHost() == null
                        || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                    throw new IllegalArgumentException();
                }
                return url;
            } catch (IllegalArgumentException e) {
                throw PaymentsException.invalidRequest("webhook_url must be an absolute http or https URL");
            }
        }).map(this::permittedWebhookUrl);
    }

    /** Not into the service's own networks (WebhookDestinations; checked again at every attempt). */
    private String permittedWebhookUrl(String url) {
        webhookDestinations.refusal(url).ifPresent(reason -> {
            throw PaymentsException.invalidRequest("webhook_url " + reason);
        });
        return url;
    }

    private static Optional<CaptureMode> captureMode(JsonNode body) {
        return Fields.text(body, "capture_mode", "").map(mode -> CaptureMode.parse(mode).orElseThrow(() ->
                PaymentsException.invalidRequest("capture_mode must be auto or delayed")));
    }

    private static Optional<Boolean> flag(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isBoolean()) {
            throw PaymentsException.invalidRequest(field + " must be true or false");
        }
        return Optional.of(value.booleanValue());
    }

    private static Optional<FeeSchedule> fees(JsonNode body) {
        return Fields.object(body, "fees", "").map(fees -> {
            JsonNode percent = fees.path("percent_bp");
            JsonNode fixed = fees.path("fixed");
            if (!percent.isMissingNode() && !(percent.canConvertToInt() && percent.isIntegralNumber()
                    && percent.intValue() >= 0 && percent.intValue() <= 10_000)) {
                throw PaymentsException.invalidRequest("fees.percent_bp must be an integer from 0 to 10000");
            }
            // bounded so that fixed + amount * percent_bp / 10000 holds in a long for every amount a payment may have
            if (!fixed.isMissingNode() && !(fixed.isIntegralNumber() && fixed.canConvertToLong() && fixed.longValue() >= 0
                    && fixed.longValue() <= FeeSchedule.MAX_FIXED)) {
                throw PaymentsException.invalidRequest(
                        "fees.fixed must be an integer of minor units from 0 to " + FeeSchedule.MAX_FIXED);
            }
            return new FeeSchedule(percent.isMissingNode() ? 0 : percent.intValue(),
                    fixed.isMissingNode() ? 0 : fixed.longValue());
        });
    }

    private ObjectNode render(PartnerView partner) {
        ObjectNode body = ApiResponses.ok();
        ObjectNode node = body.putObject("partner");
        node.put("project", partner.project());
        node.put("public_key", partner.settings().publicKeyPem());
        ArrayNode keys = node.putArray("public_keys");
        partner.settings().publicKeys().forEach(pem -> keys.addObject().put("key_id", keyId(pem)).put("public_key", pem));
        node.put("webhook_url", partner.settings().webhookUrl());
        node.put("capture_mode", partner.settings().captureMode().wireName());
        node.putObject("fees")
                .put("percent_bp", partner.settings().fees().percentBp())
                .put("fixed", partner.settings().fees().fixed());
        node.put("bank_account_ru_token", partner.settings().bankAccountToken());
        node.put("payout_from_balance", partner.settings().payoutFromBalance());
        node.put("created_at", WireFormat.timestamp(partner.registeredAt()));
        node.put("updated_at", WireFormat.timestamp(partner.updatedAt()));
        body.put("service_public_key", serviceKey.publicKeyPem());
        return body;
    }
}
