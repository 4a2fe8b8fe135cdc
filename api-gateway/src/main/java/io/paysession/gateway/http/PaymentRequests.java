package io.paysession.gateway.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;
import io.paysession.api.session.BankAppMethod;
import io.paysession.api.session.CardMethod;
import io.paysession.api.recurrent.RecurrentTokenView;
import io.paysession.api.session.FasterPaymentBindingMethod;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.SessionLimits;
import io.paysession.api.session.WalletMethod;
import io.paysession.command.vault.CardNumber;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.SealedCard;
import io.paysession.command.vault.VaultedCard;
import org.springframework.stereotype.Component;

import java.time.YearMonth;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the payment part of {@code session/create}, {@code init/payment} and {@code start/payment}.
 * Everything is validated first; only then is a card number sealed for the vault (stored with the command,
 * see {@link RequestCards}), and from there on only its token travels. No refusal message quotes a card number or a security code.
 */
@Component
public class PaymentRequests {

    private static final Set<String> PLATFORMS = Set.of("mobile", "desktop");
    private static final Pattern TWO_OR_FOUR_DIGITS = Pattern.compile("[0-9]{2}|[0-9]{4}");
    private static final Pattern MONTH = Pattern.compile("0?[1-9]|1[0-2]");
    private static final Pattern SECURITY_CODE = Pattern.compile("[0-9]{3,4}");
    private static final ObjectMapper PLAIN_NUMBERS = new ObjectMapper()
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    /** Structured fields where digit runs are legitimate; everything else in the free parts is free text. */
    static final Set<String> NOT_FREE_TEXT = Set.of("customer.contacts[].phone", "payment_options.return_url",
            "participant_details.recipient.document", "participant_details.sender.registration_number",
            "participant_details.sender.code");
    /** The free text of a payment; {@code metadata} is read by {@link #metadata}, for refunds too. */
    private static final FreeText FREE_TEXT = FreeText.at(List.of("items", "customer", "payment_options",
            "participant_details", "payment_details.faster_payment_system.description",
            "payment_details.internet_banking.qr_app_pay.channel"), NOT_FREE_TEXT);
    private static final FreeText METADATA = FreeText.at(List.of("metadata"), Set.of());

    private final CardVault vault;
    private final RecurrentTokens recurrentTokens;

    public PaymentRequests(CardVault vault, RecurrentTokens recurrentTokens) {
        this.vault = vault;
        this.recurrentTokens = recurrentTokens;
    }

    /** What the body gives of a payment; absent fields stay {@code null}. */
    public PaymentData read(ObjectNode body, String project) {
        FREE_TEXT.check(body);
        Optional<MethodInput> method = Fields.object(body, "payment_details", "")
                .map(details -> paymentDetails(details, project));
        Money amount = Fields.amountDetails(body, "amount_details", "").orElse(null);
        JsonNode customer = Fields.object(body, "customer", "").map(found -> Parties.customer(found, true)).orElse(null);
        JsonNode paymentOptions = Fields.object(body, "payment_options", "").map(PaymentRequests::paymentOptions)
                .orElse(null);
        JsonNode participant = Fields.object(body, "participant_details", "").map(Parties::participants).orElse(null);
        JsonNode metadata = metadata(body);
        JsonNode items = items(body);
        PaymentMethod paymentMethod = method.map(input -> input.card() == null ? input.method() : vault(project, input.card()))
                .orElse(null);
        return new PaymentData(paymentMethod, amount, customer, paymentOptions, participant, metadata, items);
    }

    /** Sealed now, stored with the request's command (a refused command stores nothing). */
    private CardMethod vault(String project, CardInput input) {
        SealedCard sealed = vault.seal(project, input.number(), input.expiry(), input.securityCode());
        RequestCards.add(sealed);
        VaultedCard vaulted = sealed.vaulted();
        return new CardMethod(vaulted.token(), vaulted.brand().wireName(), vaulted.bin(), vaulted.last4());
    }

    /** A method other than a card is complete as read; a card is read first and vaulted last. */
    private record MethodInput(PaymentMethod method, CardInput card) {
    }

    private MethodInput paymentDetails(ObjectNode details, String project) {
        String type = Fields.requiredText(details, "type", "payment_details");
        return switch (type) {
            case "recurrent" -> new MethodInput(recurrent(Fields.requiredObject(details, "recurrent", "payment_details"),
                    project), null);
            case "faster_payment_system_binding" -> new MethodInput(new FasterPaymentBindingMethod(), null);
            case "card" -> new MethodInput(null, card(details));
            case "wallet" -> new MethodInput(wallet(details), null);
            case "internet_banking" -> new MethodInput(internetBanking(details), null);
            case "faster_payment_system" -> new MethodInput(fasterPayment(details), null);
            default -> throw PaymentsException.invalidRequest("payment_details.type must be one of card, wallet, "
                    + "internet_banking, faster_payment_system, faster_payment_system_binding, recurrent");
        };
    }

    /**
     * A charge with a recurrent token of this project: {@code merchant} (the default) or {@code client}.
     * The e-wallet takes no customer-initiated charges (spec). Whether the token is still active is the
     * token's to say when the payment starts: a disabled token fails the payment with
     * {@code recurrent_token_inactive}.
     */
    private RecurrentMethod recurrent(ObjectNode recurrent, String project) {
        String path = "payment_details.recurrent";
        String token = Fields.requiredText(recurrent, "token", path);
        String initiatorText = Fields.text(recurrent, "initiator", path).orElse("merchant");
        RecurrentMethod.Initiator initiator = switch (initiatorText) {
            case "merchant" -> RecurrentMethod.Initiator.MERCHANT;
            case "client" -> RecurrentMethod.Initiator.CLIENT;
            default -> throw PaymentsException.invalidRequest(path + ".initiator must be merchant or client");
        };
        Fields.text(recurrent, "security_code", path).ifPresent(code -> {
            if (!SECURITY_CODE.matcher(code).matches()) {
                throw PaymentsException.invalidRequest(path + ".security_code must be 3 or 4 digits");
            }
        });
        RecurrentTokenView view = recurrentTokens.find(token).filter(found -> found.project().equals(project))
                .orElseThrow(() -> PaymentsException.invalidRequest(path + ".token is not a recurrent token of this project"));
        if (view.source() instanceof WalletMethod && initiator == RecurrentMethod.Initiator.CLIENT) {
            throw PaymentsException.invalidRequest(path + ".initiator client is not supported for e-wallet tokens");
        }
        return new RecurrentMethod(token, initiator, view.source());
    }

    private static WalletMethod wallet(ObjectNode details) {
        ObjectNode wallet = Fields.requiredObject(details, "wallet", "payment_details");
        String walletType = Fields.requiredText(wallet, "type", "payment_details.wallet");
        if (!"ewallet".equals(walletType)) {
            throw PaymentsException.invalidRequest("payment_details.wallet.type must be ewallet");
        }
        Fields.object(wallet, "ewallet", "payment_details.wallet");
        return new WalletMethod();
    }

    private static PaymentMethod internetBanking(ObjectNode details) {
        String path = "payment_details.internet_banking";
        ObjectNode banking = Fields.requiredObject(details, "internet_banking", "payment_details");
        String bankingType = Fields.requiredText(banking, "type", path);
        if ("bank_app_pay".equals(bankingType)) {
            return new BankAppMethod();
        }
        if (!"qr_app_pay".equals(bankingType)) {
            throw PaymentsException.invalidRequest(path + ".type must be bank_app_pay or qr_app_pay");
        }
        ObjectNode qr = Fields.requiredObject(banking, "qr_app_pay", path);
        String phone = Fields.requiredText(qr, "phone", path + ".qr_app_pay");
        if (!Parties.PHONE.matcher(phone).matches()) {
            throw PaymentsException.invalidRequest(path + ".qr_app_pay.phone must be 10 to 15 digits");
        }
        String channel = Fields.text(qr, "channel", path + ".qr_app_pay").orElse(null);
        return new QrAppMethod(phone, channel);
    }

    private static FasterPaymentMethod fasterPayment(ObjectNode details) {
        String path = "payment_details.faster_payment_system";
        String description = Fields.object(details, "faster_payment_system", "payment_details")
                .flatMap(fps -> Fields.text(fps, "description", path))
                .orElse(null);
        if (description != null && description.length() > 140) {
            throw PaymentsException.invalidRequest(path + ".description must be at most 140 characters");
        }
        return new FasterPaymentMethod(description);
    }

    /**
     * {@code return_url} an absolute URL; {@code description} a string; {@code platform_details.type} mobile or
     * desktop, its {@code os} and {@code browser} strings; echoed as given.
     */
    private static JsonNode paymentOptions(ObjectNode options) {
        Fields.text(options, "description", "payment_options");
        Fields.text(options, "return_url", "payment_options").ifPresent(url -> {
            if (!url.matches("(?i)[a-z][a-z0-9+.-]*://\\S+|[a-z][a-z0-9+.-]*:\\S+")) {
                throw PaymentsException.invalidRequest("payment_options.return_url must be an absolute URL or a deeplink");
            }
        });
        Fields.object(options, "platform_details", "payment_options").ifPresent(platform -> {
            Fields.text(platform, "type", "payment_options.platform_details").ifPresent(type -> {
                if (!PLATFORMS.contains(type)) {
                    throw PaymentsException.invalidRequest(
                            "payment_options.platform_details.type must be mobile or desktop");
                }
            });
            Fields.text(platform, "os", "payment_options.platform_details");
            Fields.text(platform, "browser", "payment_options.platform_details");
            requireFlag(platform.get("recurrent"), "payment_options.platform_details.recurrent");
        });
        requireFlag(options.get("recurrent"), "payment_options.recurrent");
        return JsonBodies.withoutNulls(options);
    }

    /** A flag is a boolean, or the string {@code "true"} / {@code "false"} as the spec's examples send it. */
    static void requireFlag(JsonNode value, String path) {
        if (value == null || value.isNull() || value.isBoolean()) {
            return;
        }
        if (!value.isTextual() || !("true".equals(value.textValue()) || "false".equals(value.textValue()))) {
            throw PaymentsException.invalidRequest(path + " must be true or false");
        }
    }

    private static CardInput card(ObjectNode details) {
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
            throw PaymentsException.invalidRequest(Fields.path(path, "expiration_year")
                    + " must be two digits (as \"34\") or four (as \"2034\")");
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

    static JsonNode metadata(ObjectNode body) {
        METADATA.check(body);
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

    /**
     * A refund's {@code metadata}: as {@link #metadata}, and at most {@link SessionLimits#MAX_REFUND_METADATA_BYTES} as
     * compact JSON, since every later view and {@code payment_refunded} of the session repeats every refund's. Numbers
     * count written out in full, as PostgreSQL's {@code jsonb} stores them in the session's view ({@code 1e300} is
     * 301 digits there).
     */
    static JsonNode refundMetadata(ObjectNode body) {
        JsonNode metadata = metadata(body);
        if (metadata != null && plainJsonLength(metadata) > SessionLimits.MAX_REFUND_METADATA_BYTES) {
            throw PaymentsException.invalidRequest("metadata of a refund must be at most "
                    + SessionLimits.MAX_REFUND_METADATA_BYTES + " bytes as JSON");
        }
        return metadata;
    }

    private static int plainJsonLength(JsonNode node) {
        try {
            return PLAIN_NUMBERS.writeValueAsBytes(node).length;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree that cannot be written", e);
        }
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
