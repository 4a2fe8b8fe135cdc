package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.command.vault.CardNumber;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.PublicTokens;
import io.paysession.command.vault.StoredCard;
import io.paysession.command.vault.VaultedCard;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Card tokenization: {@code /cds/v1/tokenize/elements} puts card numbers into the vault and answers with
 * tokens for payouts; {@code /api/v1/token} issues the one-use public token of the browser widget;
 * {@code /api/v1/token/info} describes a card token. A token works only for the project that made it.
 */
@RestController
public class TokenController {

    private static final Set<String> LOCALES = Set.of("en", "ru");

    private final CardVault vault;
    private final PublicTokens publicTokens;

    public TokenController(CardVault vault, PublicTokens publicTokens) {
        this.vault = vault;
        this.publicTokens = publicTokens;
    }

    @PostMapping("/cds/v1/tokenize/elements")
    public ResponseEntity<ObjectNode> tokenize(HttpServletRequest request) {
        PartnerView partner = SessionController.partner(request);
        JsonNode elements = SessionController.body(request).get("card_elements");
        if (elements == null || !elements.isArray() || elements.isEmpty()) {
            throw PaymentsException.invalidRequest("card_elements must be a non-empty array");
        }
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
            CardNumber number = CardNumber.parse(Fields.requiredText(element, "card_number", path))
                    .orElseThrow(() -> PaymentsException.invalidRequest(path + ".card_number must be 12 to 19 digits"));
            if (!number.passesLuhnCheck()) {
                throw new PaymentsException(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST, "The card number does not exist");
            }
            numbers.put(ref, number);
        }
        ObjectNode body = ApiResponses.ok();
        ObjectNode data = body.putObject("data");
        numbers.forEach((ref, number) -> {
            VaultedCard card = vault.store(partner.project(), number, null, null);
            data.putObject(ref).put("token", card.token()).putObject("info")
                    .put("masked_card_number", number.masked())
                    .put("card_network", card.brand().wireName())
                    .put("card_type", "unknown");
        });
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    @PostMapping("/api/v1/token")
    public ResponseEntity<ObjectNode> publicToken(HttpServletRequest request) {
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        ObjectNode widget = Fields.object(body, "tokenize_widget", "").orElseThrow(() ->
                PaymentsException.invalidRequest(Fields.isPresent(body, "acquiring_widget")
                        || Fields.isPresent(body, "fps_no_account_widget") || Fields.isPresent(body, "self_employed_widget")
                        ? "only tokenize_widget is supported" : "tokenize_widget is required"));
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

    @PostMapping("/api/v1/token/info")
    public ResponseEntity<ObjectNode> tokenInfo(HttpServletRequest request) {
        PartnerView partner = SessionController.partner(request);
        ObjectNode body = SessionController.body(request);
        if (!"card".equals(Fields.requiredText(body, "type", ""))) {
            throw PaymentsException.invalidRequest("type must be card");
        }
        ObjectNode card = Fields.requiredObject(body, "card", "");
        if (!"encrypted_card".equals(Fields.requiredText(card, "type", "card"))) {
            throw PaymentsException.invalidRequest("card.type must be encrypted_card");
        }
        String hash = Fields.requiredText(Fields.requiredObject(card, "encrypted_card", "card"), "number_hash",
                "card.encrypted_card");
        StoredCard stored = vault.describe(hash).filter(found -> found.project().equals(partner.project()))
                .orElseThrow(() -> PaymentsException.invalidRequest("card.encrypted_card.number_hash is not a card token of this project"));
        ObjectNode answer = ApiResponses.ok();
        answer.putObject("info").put("number_hash", stored.token()).put("brand", stored.brand())
                .put("last4", stored.last4()).put("type", "card");
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer);
    }
}
