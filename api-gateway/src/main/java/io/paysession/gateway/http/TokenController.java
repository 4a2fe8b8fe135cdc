package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.api.recurrent.RecurrentTokenView;
import io.paysession.api.wire.WireFormat;
import io.paysession.command.rails.CardType;
import io.paysession.command.rails.CardTypes;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.view.SessionView;
import io.paysession.command.vault.BrowserTokenization;
import io.paysession.gateway.widget.AcquiringWidgets;
import io.paysession.gateway.widget.FpsPayoutWidgets;
import org.axonframework.queryhandling.QueryGateway;
import io.paysession.command.vault.CardNumber;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.PublicTokens;
import io.paysession.command.vault.StoredCard;
import io.paysession.command.vault.VaultedCard;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Card tokenization: {@code /cds/v1/tokenize/elements} puts card numbers into the vault and answers with
 * tokens for payouts; {@code /api/v1/token} issues the one-use public token of the browser widget, which
 * spends it on {@code /cds/v1/tokenize/card};
 * {@code /api/v1/token/info} describes a card token, a public token or a recurrent token. A token works only for the project that made it.
 */
@RestController
public class TokenController {

    static final String PUBLIC_TOKEN_HEADER = "X-PUBLIC-TOKEN";
    private static final Set<String> LOCALES = Set.of("en", "ru");
    private static final Pattern PUBLIC_TOKEN = Pattern.compile("[0-9a-f]{64}");

    /** A ref is echoed as a member name of the answer. */
    private static final FreeText FREE_TEXT = FreeText.at(List.of("card_elements[].ref"), Set.of());

    private final CardVault vault;
    private final PublicTokens publicTokens;
    private final BrowserTokenization tokenization;
    private final RecurrentTokens recurrentTokens;
    private final ObjectProvider<CardTypes> cardTypes;
    private final Clock clock;
    private final AcquiringWidgets acquiringWidgets;
    private final FpsPayoutWidgets fpsPayoutWidgets;
    private final QueryGateway queries;

    public TokenController(CardVault vault, PublicTokens publicTokens, BrowserTokenization tokenization,
                           RecurrentTokens recurrentTokens, ObjectProvider<CardTypes> cardTypes, Clock clock,
                           AcquiringWidgets acquiringWidgets, FpsPayoutWidgets fpsPayoutWidgets,
                           QueryGateway queries) {
        this.acquiringWidgets = acquiringWidgets;
        this.fpsPayoutWidgets = fpsPayoutWidgets;
        this.queries = queries;
        this.vault = vault;
        this.publicTokens = publicTokens;
        this.tokenization = tokenization;
        this.recurrentTokens = recurrentTokens;
        this.cardTypes = cardTypes;
        this.clock = clock;
    }

    @PostMapping("/cds/v1/tokenize/elements")
    public ResponseEntity<ObjectNode> tokenize(HttpServletRequest request) {
        PartnerView partner = SessionController.partner(request);
        ObjectNode json = SessionController.body(request);
        JsonNode elements = json.get("card_elements");
        if (elements == null || !elements.isArray() || elements.isEmpty()) {
            throw PaymentsException.invalidRequest("card_elements must be a non-empty array");
        }
        FREE_TEXT.check(json);
        // every element is checked before the first card number enters the vault
        Map<String, CardNumber> numbers = new LinkedHashMap<>();
        for (int i = 0; i < elements.size(); i++) {
            String path = "card_elements[" + i + "]";
            JsonNode element = elements.get(i);
            if (!element.isObject()) {
                throw PaymentsException.invalidRequest(path + " must be an object");
            }
            String ref = Fields.requiredText(element, "ref", path);
            if (numbers.containsKey(ref)) {
                throw PaymentsException.invalidRequest(path + ".ref repeats an earlier element's ref");
            }
            if (!"card_number".equals(Fields.requiredText(element, "type", path))) {
                throw PaymentsException.invalidRequest(path + ".type must be card_number");
            }
            numbers.put(ref, existingCardNumber(Fields.requiredText(element, "card_number", path), path + ".card_number"));
        }
        ObjectNode body = ApiResponses.ok();
        ObjectNode data = body.putObject("data");
        numbers.forEach((ref, number) ->
                tokenRecord(data.putObject(ref), vault.store(partner.project(), number, null, null), number));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    /**
     * The card-tokenizer widget's call, from the payer's browser: no partner signature (the filter lets exactly
     * this path through) but the one-use public token in {@code X-PUBLIC-TOKEN}. The token is checked first, then
     * the number, and only a valid number uses the token up. Expiry and security code, when sent, are not read.
     */
    @PostMapping(PartnerSignatureFilter.PUBLIC_TOKEN_PATH)
    public ResponseEntity<ObjectNode> tokenizeWithPublicToken(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        response.setHeader("X-Request-Id", RequestMetadata.requestId(request));
        // the token first: a caller without one gets its 401 with the body unread
        String publicToken = request.getHeader(PUBLIC_TOKEN_HEADER);
        if (publicToken == null || publicToken.isBlank()) {
            throw new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, PUBLIC_TOKEN_HEADER + " is required");
        }
        if (!PUBLIC_TOKEN.matcher(publicToken).matches() || publicTokens.projectOf(publicToken).isEmpty()) {
            throw deadPublicToken();
        }
        byte[] raw = RequestBodies.readOrRefuse(request);
        ObjectNode card = Fields.requiredObject(JsonBodies.readObject(raw), "card", "");
        CardNumber number = existingCardNumber(Fields.requiredText(card, "number", "card"), "card.number");
        VaultedCard stored = tokenization.tokenize(publicToken, number).orElseThrow(TokenController::deadPublicToken);
        ObjectNode body = ApiResponses.ok();
        tokenRecord(body.putObject("data"), stored, number);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    @PostMapping("/api/v1/token")
    public ResponseEntity<ObjectNode> publicToken(HttpServletRequest request) {
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        long widgets = java.util.stream.Stream.of("tokenize_widget", "acquiring_widget", "fps_no_account_widget",
                "self_employed_widget").filter(name -> Fields.isPresent(body, name)).count();
        if (widgets > 1) {
            throw PaymentsException.invalidRequest("a public token is for one widget: give one of tokenize_widget, "
                    + "acquiring_widget, fps_no_account_widget");
        }
        Optional<ObjectNode> acquiring = Fields.object(body, "acquiring_widget", "");
        if (acquiring.isPresent()) {
            String token = acquiringWidgets.issue(partner, acquiring.get(),
                    sessionOf(acquiring.get(), "acquiring_widget"));
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                    .body(ApiResponses.ok().put("public_token", token));
        }
        Optional<ObjectNode> fpsPayout = Fields.object(body, "fps_no_account_widget", "");
        if (fpsPayout.isPresent()) {
            String token = fpsPayoutWidgets.issue(partner, fpsPayout.get(),
                    sessionOf(fpsPayout.get(), "fps_no_account_widget"));
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                    .body(ApiResponses.ok().put("public_token", token));
        }
        ObjectNode widget = Fields.object(body, "tokenize_widget", "").orElseThrow(() ->
                PaymentsException.invalidRequest(Fields.isPresent(body, "self_employed_widget")
                        ? "self_employed_widget is not offered"
                        : "tokenize_widget, acquiring_widget or fps_no_account_widget is required"));
        JsonNode access = widget.get("access");
        PaymentRequests.requireFlag(access, "tokenize_widget.access");
        if (access != null && !access.isNull() && !access.asBoolean(false)) {
            throw PaymentsException.invalidRequest("tokenize_widget.access must be true");
        }
        String locale = Fields.text(widget, "locale", "tokenize_widget").orElse("en");
        if (!LOCALES.contains(locale)) {
            throw PaymentsException.invalidRequest("tokenize_widget.locale must be en or ru");
        }
        ObjectNode answer = ApiResponses.ok().put("public_token", publicTokens.issue(partner.project(), locale));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer);
    }

    /**
     * {@code token/info}: {@code type} {@code card} ({@code card.encrypted_card.number_hash}), {@code public_token}
     * ({@code public_token.token}) or {@code recurrent_token} ({@code recurrent_token.token}); each answers with
     * {@code info} describing a token of the asking project, and a token of another project, or none, as
     * {@code invalid_request}, the same answer for both.
     */
    @PostMapping("/api/v1/token/info")
    public ResponseEntity<ObjectNode> tokenInfo(HttpServletRequest request) {
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        String type = Fields.requiredText(body, "type", "");
        ObjectNode answer = ApiResponses.ok();
        switch (type) {
            case "card" -> cardInfo(answer.putObject("info"), body, partner);
            case "public_token" -> publicTokenInfo(answer.putObject("info"), body, partner);
            case "recurrent_token" -> recurrentTokenInfo(answer.putObject("info"), body, partner);
            default -> throw PaymentsException.invalidRequest("type must be card, public_token or recurrent_token");
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer);
    }

    private void cardInfo(ObjectNode info, ObjectNode body, PartnerView partner) {
        ObjectNode card = Fields.requiredObject(body, "card", "");
        if (!"encrypted_card".equals(Fields.requiredText(card, "type", "card"))) {
            throw PaymentsException.invalidRequest("card.type must be encrypted_card");
        }
        String hash = Fields.requiredText(Fields.requiredObject(card, "encrypted_card", "card"), "number_hash",
                "card.encrypted_card");
        StoredCard stored = vault.describe(hash).filter(found -> found.project().equals(partner.project()))
                .orElseThrow(() -> PaymentsException.invalidRequest("card.encrypted_card.number_hash is not a card token of this project"));
        info.put("number_hash", stored.token()).put("brand", stored.brand()).put("last4", stored.last4())
                .put("card_type", cardType(stored.bin())).put("type", "card");
    }

    /** Issued, expires (24 h), active until used once or expired; {@code finished_at} once it is not. */
    private void publicTokenInfo(ObjectNode info, ObjectNode body, PartnerView partner) {
        String token = Fields.requiredText(Fields.requiredObject(body, "public_token", ""), "token", "public_token");
        PublicTokens.Description found = (PUBLIC_TOKEN.matcher(token).matches() ? publicTokens.describe(token)
                : java.util.Optional.<PublicTokens.Description>empty())
                .filter(described -> described.project().equals(partner.project()))
                .orElseThrow(() -> PaymentsException.invalidRequest("public_token.token is not a public token of this project"));
        Instant now = clock.instant();
        info.put("token", token).put("type", "public_token")
                .put("created_at", WireFormat.timestamp(found.createdAt()))
                .put("expires_at", WireFormat.timestamp(found.expiresAt()));
        if (found.finishedAt(now) != null) {
            info.put("finished_at", WireFormat.timestamp(found.finishedAt(now)));
        }
        info.put("is_active", found.activeAt(now));
    }

    /** As {@code recurrent/status} answers it: issued, active until the partner disables it. */
    private void recurrentTokenInfo(ObjectNode info, ObjectNode body, PartnerView partner) {
        String token = Fields.requiredText(Fields.requiredObject(body, "recurrent_token", ""), "token",
                "recurrent_token");
        RecurrentTokenView found = recurrentTokens.find(token).filter(view -> view.project().equals(partner.project()))
                .orElseThrow(() -> PaymentsException.invalidRequest("recurrent_token.token is not a recurrent token of this project"));
        info.put("token", found.token()).put("type", "recurrent_token")
                .put("created_at", WireFormat.timestamp(found.createdAt()));
        if (!found.active()) {
            info.put("finished_at", WireFormat.timestamp(found.disabledAt()));
        }
        info.put("is_active", found.active());
    }

    private String cardType(String bin) {
        return cardTypes.getIfAvailable(() -> any -> CardType.UNKNOWN).typeOf(bin).wireName();
    }

    /** The session a session widget names; null when there is no such session. */
    private SessionView sessionOf(ObjectNode widget, String path) {
        String sessionText = Fields.requiredText(widget, "session_id", path);
        return SessionId.parse(sessionText).flatMap(id -> {
            try {
                return Optional.of(SessionController.find(queries, id));
            } catch (PaymentsException notFound) {
                return Optional.empty();
            }
        }).orElse(null);
    }

    /** 12 to 19 digits that pass the Luhn check; the number itself is never part of a refusal. */
    private static CardNumber existingCardNumber(String text, String path) {
        CardNumber number = CardNumber.parse(text)
                .orElseThrow(() -> PaymentsException.invalidRequest(path + " must be 12 to 19 digits"));
        if (!number.passesLuhnCheck()) {
            throw new PaymentsException(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST, "The card number does not exist");
        }
        return number;
    }

    /** The token record of the spec: {@code token} and {@code info {masked_card_number, card_network, card_type}}. */
    private void tokenRecord(ObjectNode into, VaultedCard card, CardNumber number) {
        into.put("token", card.token());
        into.putObject("info")
                .put("masked_card_number", number.masked())
                .put("card_network", card.brand().wireName())
                .put("card_type", cardType(number.bin()));
    }

    /** One answer for unknown, expired and used tokens: a caller learns nothing about tokens it does not hold. */
    private static PaymentsException deadPublicToken() {
        return new PaymentsException(ErrorCode.AUTHENTICATION_ERROR, "The public token is unknown, expired or already used");
    }
}
