package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PaymentData;
import io.paysession.command.rails.CardAcquirer;
import io.paysession.command.vault.CardNumber;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.VaultedCard;
import org.springframework.stereotype.Component;

import java.time.YearMonth;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the payment part of {@code session/create}, {@code init/payment} and {@code start/payment}.
 * Everything is validated first; only then is a card number put into the vault, and from there on only
 * its token travels. No refusal message quotes a card number or a security code.
 */
@Component
public class PaymentRequests {

    private static final Set<String> LATER_METHODS = Set.of("wallet", "internet_banking", "faster_payment_system",
            "faster_payment_system_binding", "recurrent");
    private static final Pattern TWO_OR_FOUR_DIGITS = Pattern.compile("[0-9]{2}|[0-9]{4}");
    private static final Pattern MONTH = Pattern.compile("0?[1-9]|1[0-2]");
    private static final Pattern SECURITY_CODE = Pattern.compile("[0-9]{3,4}");

    private final CardVault vault;
    private final CardAcquirer acquirer;

    public PaymentRequests(CardVault vault, CardAcquirer acquirer) {
        this.vault = vault;
        this.acquirer = acquirer;
    }

    /** What the body gives of a payment; absent fields stay {@code null}. */
    public PaymentData read(ObjectNode body, String project) {
        Optional<CardInput> card = Fields.object(body, "payment_details", "").map(PaymentRequests::paymentDetails);
        Money amount = Fields.amountDetails(body, "amount_details", "").orElse(null);
        JsonNode customer = Fields.object(body, "customer", "").map(PaymentRequests::customer).orElse(null);
        JsonNode paymentOptions = Fields.object(body, "payment_options", "").map(JsonBodies::withoutNulls).orElse(null);
        JsonNode participant = Fields.object(body, "participant_details", "").map(JsonBodies::withoutNulls).orElse(null);
        JsonNode metadata = metadata(body);
        JsonNode items = items(body);
        card.ifPresent(input -> acquirer.refusesAtIntake(input.number()).ifPresent(reason -> {
            throw PaymentsException.invalidRequest(reason);
        }));
        CardMethod method = card.map(input -> {
            VaultedCard vaulted = vault.store(project, input.number(), input.expiry(), input.securityCode());
            return new CardMethod(vaulted.token(), vaulted.brand().wireName(), vaulted.bin(), vaulted.last4());
        }).orElse(null);
        return new PaymentData(method, amount, customer, paymentOptions, participant, metadata, items);
    }

    private static CardInput paymentDetails(ObjectNode details) {
        String type = Fields.requiredText(details, "type", "payment_details");
        if (LATER_METHODS.contains(type)) {
            throw PaymentsException.invalidRequest("payment_details.type " + type + " is not supported yet");
        }
        if (!"card".equals(type)) {
            throw PaymentsException.invalidRequest("payment_details.type must be one of card, wallet, "
                    + "internet_banking, faster_payment_system, faster_payment_system_binding, recurrent");
        }
        ObjectNode card = Fields.requiredObject(details, "card", "payment_details");
        String cardType = Fields.requiredText(card, "type", "payment_details.card");
        if (!"bank_card".equals(cardType)) {
            throw PaymentsException.invalidRequest("payment_details.card.type must be bank_card");
        }
        return bankCard(Fields.requiredObject(card, "bank_card", "payment_details.card"),
                "payment_details.card.bank_card");
    }

    private static CardInput bankCard(ObjectNode bankCard, String path) {
        String numberText = Fields.requiredText(bankCard, "number", path);
        CardNumber number = CardNumber.parse(numberText).orElseThrow(() ->
                PaymentsException.invalidRequest(Fields.path(path, "number") + " must be 12 to 19 digits"));
        int month = month(bankCard, path);
        int year = year(bankCard, path);
        String securityCode = Fields.requiredText(bankCard, "security_code", path);
        if (!SECURITY_CODE.matcher(securityCode).matches()) {
            throw PaymentsException.invalidRequest(Fields.path(path, "security_code") + " must be 3 or 4 digits");
        }
        if (!number.passesLuhnCheck()) {
            throw new PaymentsException(ErrorCode.CARD_NUMBER_DOES_NOT_EXIST, "The card number does not exist");
        }
        return new CardInput(number, YearMonth.of(year, month), securityCode);
    }

    private static int month(ObjectNode bankCard, String path) {
        String text = digitsOf(bankCard, "expiration_month", path);
        if (!MONTH.matcher(text).matches()) {
            throw PaymentsException.invalidRequest(Fields.path(path, "expiration_month") + " must be a month from 01 to 12");
        }
        return Integer.parseInt(text);
    }

    private static int year(ObjectNode bankCard, String path) {
        String text = digitsOf(bankCard, "expiration_year", path);
        if (!TWO_OR_FOUR_DIGITS.matcher(text).matches()) {
            throw PaymentsException.invalidRequest(Fields.path(path, "expiration_year") + " must be two digits");
        }
        int year = Integer.parseInt(text);
        return text.length() == 2 ? 2000 + year : year;
    }

    /** Expiry fields are strings in the spec; integers are taken too. */
    private static String digitsOf(ObjectNode parent, String name, String path) {
        JsonNode value = parent.get(name);
        if (value == null || value.isNull()) {
            throw Fields.missing(Fields.path(path, name));
        }
        if (value.isIntegralNumber() && value.canConvertToInt()) {
            return String.valueOf(value.intValue());
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        throw PaymentsException.invalidRequest(Fields.path(path, name) + " must be a string of digits");
    }

    private static JsonNode customer(ObjectNode customer) {
        String reference = Fields.requiredText(customer, "reference", "customer");
        if (reference.length() > 255) {
            throw PaymentsException.invalidRequest("customer.reference must be at most 255 characters");
        }
        JsonNode contacts = customer.get("contacts");
        if (contacts != null && !contacts.isNull()) {
            if (!contacts.isArray()) {
                throw PaymentsException.invalidRequest("customer.contacts must be an array");
            }
            for (int i = 0; i < contacts.size(); i++) {
                JsonNode contact = contacts.get(i);
                String path = "customer.contacts[" + i + "]";
                if (!contact.isObject()) {
                    throw PaymentsException.invalidRequest(path + " must be an object");
                }
                Fields.text(contact, "email", path);
                Fields.text(contact, "phone", path);
            }
        }
        return JsonBodies.withoutNulls(customer);
    }

    private static JsonNode metadata(ObjectNode body) {
        JsonNode metadata = body.get("metadata");
        if (metadata == null || metadata.isNull()) {
            return null;
        }
        if (metadata.isTextual() || metadata.isObject()) {
            return JsonBodies.withoutNulls(metadata);
        }
        if (metadata.isArray() && metadata.isEmpty()) {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }
        throw PaymentsException.invalidRequest("metadata must be a string or an object");
    }

    private static JsonNode items(ObjectNode body) {
        JsonNode items = body.get("items");
        if (items == null || items.isNull()) {
            return null;
        }
        if (!items.isObject() && !items.isArray()) {
            throw PaymentsException.invalidRequest("items must be an object or an array");
        }
        return JsonBodies.withoutNulls(items);
    }

    private record CardInput(CardNumber number, YearMonth expiry, String securityCode) {
        @Override
        public String toString() {
            return "CardInput[" + number.masked() + "]";
        }
    }
}
