package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutMethod;
import io.paysession.command.vault.CardNumber;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.SealedCard;
import io.paysession.command.vault.StoredCard;
import io.paysession.command.vault.VaultedCard;
import org.springframework.stereotype.Component;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads the payout part of {@code session/create}, {@code init/payout}, {@code start/payout} and
 * {@code fps/customer_verification}: the payout details under either name ({@code payment_method} in v1,
 * {@code payout_details} in v2; both are accepted), the amount and the participants. A card number is
 * vaulted last, once everything else is valid; a card token must belong to the requesting project.
 */
@Component
public class PayoutRequests {

    private static final Pattern BANK_ID = Pattern.compile("[0-9]{9,12}");
    private static final Pattern IBAN = Pattern.compile("[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}");

    /** The free text of a payout under either name of its details; {@code metadata} is read with the payment's. */
    private static final FreeText FREE_TEXT = FreeText.at(List.of("customer", "participant_details",
            "payout_details.bank_account.global.description", "payment_method.bank_account.global.description",
            "payout_details.bank_account.faster_payment_system.description",
            "payment_method.bank_account.faster_payment_system.description"), PaymentRequests.NOT_FREE_TEXT);

    private final CardVault vault;

    public PayoutRequests(CardVault vault) {
        this.vault = vault;
    }

    /** Whether the body carries payout details under either name. */
    public static boolean hasPayoutDetails(JsonNode body) {
        return Fields.isPresent(body, "payout_details") || Fields.isPresent(body, "payment_method");
    }

    public PayoutData read(ObjectNode body, String project, ApiVersion version) {
        return read(body, project, version, false);
    }

    /**
     * The payout draft of {@code session/create}: as {@link #read}, and an instant-payment payout may leave out its
     * payee ({@code bank_account.system_type} {@code faster_payment_system} without the {@code faster_payment_system}
     * object): the payee gives the phone and the bank on the payout widget ({@code fps_no_account_widget}).
     */
    public PayoutData readDraft(ObjectNode body, String project, ApiVersion version) {
        return read(body, project, version, true);
    }

    private PayoutData read(ObjectNode body, String project, ApiVersion version, boolean draft) {
        FREE_TEXT.check(body);
        if (Fields.isPresent(body, "payout_details") && Fields.isPresent(body, "payment_method")) {
            // two sets of details under the two names leave no way to tell which one the partner meant
            throw PaymentsException.invalidRequest("give the payout details as " + version.payoutDetailsName()
                    + ", not under both payout_details and payment_method");
        }
        String name = Fields.isPresent(body, "payout_details") ? "payout_details" : "payment_method";
        Optional<MethodInput> method = Fields.object(body, name, "")
                .filter(details -> !(draft && payeeLeftOut(details)))
                .map(details -> method(details, name, project));
        Money amount = Fields.amountDetails(body, "amount_details", "").orElse(null);
        JsonNode participants = Fields.object(body, "participant_details", "").map(Parties::participants)
                .orElse(null);
        JsonNode customer = Fields.object(body, "customer", "").map(found -> Parties.customer(found, false))
                .orElse(null);
        JsonNode metadata = PaymentRequests.metadata(body);
        PayoutMethod payoutMethod = method.map(input -> input.number() == null ? input.method() : vault(project, input))
                .orElse(null);
        return new PayoutData(payoutMethod, amount, customer, participants, metadata);
    }

    /** An instant-payment payout's details without the payee's phone and bank (the payout widget asks for them). */
    private static boolean payeeLeftOut(ObjectNode details) {
        JsonNode account = details.get("bank_account");
        return "bank_account".equals(details.path("type").asText()) && account != null && account.isObject()
                && "faster_payment_system".equals(account.path("system_type").asText())
                && !account.has("faster_payment_system");
    }

    /** Sealed now, stored with the request's command (a refused command stores nothing). */
    private PayoutMethod.Card vault(String project, MethodInput input) {
        SealedCard sealed = vault.seal(project, input.number(), null, null);
        RequestCards.add(sealed);
        VaultedCard card = sealed.vaulted();
        return new PayoutMethod.Card("bank_card", card.token(), card.brand().wireName(), card.bin(), card.last4());
    }

    /** A raw card number is carried to the end of validation, then vaulted. */
    private record MethodInput(PayoutMethod method, CardNumber number) {
        @Override
        public String toString() {
            return "MethodInput[" + method + "]";
        }
    }

    private MethodInput method(ObjectNode details, String path, String project) {
        String type = Fields.requiredText(details, "type", path);
        return switch (type) {
            case "card" -> card(Fields.requiredObject(details, "card", path), path + ".card", project);
            case "bank_account" -> new MethodInput(bankAccount(Fields.requiredObject(details, "bank_account", path),
                    path + ".bank_account"), null);
            default -> throw PaymentsException.invalidRequest(path + ".type must be card or bank_account");
        };
    }

    private MethodInput card(ObjectNode card, String path, String project) {
        String cardType = Fields.requiredText(card, "type", path);
        switch (cardType) {
            case "bank_card" -> {
                String text = Fields.requiredText(Fields.requiredObject(card, "bank_card", path), "number",
                        path + ".bank_card");
                CardNumber number = CardNumber.parse(text).orElseThrow(() -> PaymentsException.invalidRequest(
                        path + ".bank_card.number must be 12 to 19 digits"));
                if (!number.passesLuhnCheck()) {
                    throw new PaymentsException(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST, "The card number does not exist");
                }
                return new MethodInput(null, number);
            }
            case "encrypted_card" -> {
                String hash = Fields.requiredText(Fields.requiredObject(card, "encrypted_card", path), "number_hash",
                        path + ".encrypted_card");
                return new MethodInput(tokenized("encrypted_card", hash, path + ".encrypted_card.number_hash", project),
                        null);
            }
            case "tokenized_card" -> {
                String token = Fields.requiredText(Fields.requiredObject(card, "tokenized_card", path), "token",
                        path + ".tokenized_card");
                return new MethodInput(tokenized("tokenized_card", token, path + ".tokenized_card.token", project),
                        null);
            }
            default -> throw PaymentsException.invalidRequest(
                    path + ".type must be bank_card, encrypted_card or tokenized_card");
        }
    }

    private PayoutMethod.Card tokenized(String source, String token, String path, String project) {
        StoredCard card = vault.describe(token).filter(stored -> stored.project().equals(project))
                .orElseThrow(() -> PaymentsException.invalidRequest(path + " is not a card token of this project"));
        return new PayoutMethod.Card(source, card.token(), card.brand(), card.bin(), card.last4());
    }

    private static PayoutMethod bankAccount(ObjectNode account, String path) {
        String system = Fields.requiredText(account, "system_type", path);
        switch (system) {
            case "global" -> {
                ObjectNode global = Fields.requiredObject(account, "global", path);
                String iban = iban(Fields.requiredText(global, "iban", path + ".global"), path + ".global.iban");
                return new PayoutMethod.Iban("global", iban, Fields.text(global, "description", path + ".global")
                        .orElse(null));
            }
            case "iban" -> {
                ObjectNode iban = Fields.requiredObject(account, "iban", path);
                return new PayoutMethod.Iban("iban", iban(Fields.requiredText(iban, "account", path + ".iban"),
                        path + ".iban.account"), null);
            }
            case "faster_payment_system" -> {
                ObjectNode fps = Fields.requiredObject(account, "faster_payment_system", path);
                String fpsPath = path + ".faster_payment_system";
                String description = Fields.text(fps, "description", fpsPath).orElse(null);
                if (description != null && description.length() > 140) {
                    throw PaymentsException.invalidRequest(fpsPath + ".description must be at most 140 characters");
                }
                return new PayoutMethod.FasterPayment(phone(fps, fpsPath), bankId(fps, fpsPath), description);
            }
            case "faster_payment_system_verification" -> {
                ObjectNode fps = Fields.requiredObject(account, "faster_payment_system_verification", path);
                String fpsPath = path + ".faster_payment_system_verification";
                return new PayoutMethod.FasterPaymentVerification(phone(fps, fpsPath), bankId(fps, fpsPath));
            }
            default -> throw PaymentsException.invalidRequest(path + ".system_type must be global, iban, "
                    + "faster_payment_system or faster_payment_system_verification");
        }
    }

    /** An IBAN, spaces removed, upper case, and its mod-97 check (ISO 13616). */
    static String iban(String text, String path) {
        String iban = text.replace(" ", "").toUpperCase(Locale.ROOT);
        if (!IBAN.matcher(iban).matches()) {
            throw PaymentsException.invalidRequest(path + " is not an IBAN");
        }
        StringBuilder digits = new StringBuilder();
        for (char c : (iban.substring(4) + iban.substring(0, 4)).toCharArray()) {
            digits.append(Character.isDigit(c) ? String.valueOf(c) : String.valueOf(c - 'A' + 10));
        }
        if (!new BigInteger(digits.toString()).mod(BigInteger.valueOf(97)).equals(BigInteger.ONE)) {
            throw PaymentsException.invalidRequest(path + " fails the IBAN check digits");
        }
        return iban;
    }

    private static String phone(ObjectNode node, String path) {
        String phone = Fields.requiredText(node, "phone", path);
        if (!Parties.PHONE.matcher(phone).matches()) {
            throw PaymentsException.invalidRequest(path + ".phone must be 10 to 15 digits");
        }
        return phone.startsWith("+") ? phone.substring(1) : phone;
    }

    private static String bankId(ObjectNode node, String path) {
        String bankId = Fields.requiredText(node, "bank_id", path);
        if (!BANK_ID.matcher(bankId).matches()) {
            throw PaymentsException.invalidRequest(path + ".bank_id must be the bank's id in the instant-payment system");
        }
        return bankId;
    }
}
