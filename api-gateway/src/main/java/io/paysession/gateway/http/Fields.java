package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.Money;

import java.math.BigInteger;
import java.util.Currency;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Typed reads of request fields, each refusal naming the field by its full path. {@code null} counts
 * as absent; an empty array where an object is expected is an empty object (PHP SDKs send {@code []}).
 */
public final class Fields {

    /** Above this, an amount is certainly a mistake: 10^15 minor units. */
    static final long MAX_AMOUNT = 1_000_000_000_000_000L;
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,19}");
    private static final Pattern CURRENCY = Pattern.compile("[A-Za-z]{3}");

    private Fields() {
    }

    public static String path(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    public static boolean isPresent(JsonNode parent, String name) {
        JsonNode value = parent.get(name);
        return value != null && !value.isNull();
    }

    public static Optional<ObjectNode> object(JsonNode parent, String name, String parentPath) {
        JsonNode value = parent.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (value.isObject()) {
            return Optional.of((ObjectNode) value);
        }
        if (value.isArray() && value.isEmpty()) {
            return Optional.of(JsonNodeFactory.instance.objectNode());
        }
        throw PaymentsException.invalidRequest(path(parentPath, name) + " must be an object");
    }

    public static ObjectNode requiredObject(JsonNode parent, String name, String parentPath) {
        return object(parent, name, parentPath).orElseThrow(() -> missing(path(parentPath, name)));
    }

    public static Optional<String> text(JsonNode parent, String name, String parentPath) {
        JsonNode value = parent.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw PaymentsException.invalidRequest(path(parentPath, name) + " must be a string");
        }
        return Optional.of(value.textValue());
    }

    public static String requiredText(JsonNode parent, String name, String parentPath) {
        String value = text(parent, name, parentPath).orElseThrow(() -> missing(path(parentPath, name)));
        if (value.isBlank()) {
            throw PaymentsException.invalidRequest(path(parentPath, name) + " must not be empty");
        }
        return value;
    }

    /** {@code amount_details}: an integer amount above zero (or a string of digits) and an ISO 4217 currency. */
    public static Optional<Money> amountDetails(JsonNode parent, String name, String parentPath) {
        Optional<ObjectNode> details = object(parent, name, parentPath);
        if (details.isEmpty()) {
            return Optional.empty();
        }
        String path = path(parentPath, name);
        long amount = amount(details.get(), "amount", path);
        String currencyCode = requiredText(details.get(), "currency", path);
        return Optional.of(new Money(amount, currency(currencyCode, path(path, "currency"))));
    }

    static long amount(JsonNode parent, String name, String parentPath) {
        String path = path(parentPath, name);
        JsonNode value = parent.get(name);
        if (value == null || value.isNull()) {
            throw missing(path);
        }
        BigInteger amount;
        if (value.isIntegralNumber()) {
            amount = value.bigIntegerValue();
        } else if (value.isTextual() && DIGITS.matcher(value.textValue()).matches()) {
            amount = new BigInteger(value.textValue());
        } else {
            throw PaymentsException.invalidRequest(path + " must be an integer number of minor units");
        }
        if (amount.signum() <= 0) {
            throw PaymentsException.invalidRequest(path + " must be greater than zero");
        }
        if (amount.compareTo(BigInteger.valueOf(MAX_AMOUNT)) > 0) {
            throw PaymentsException.invalidRequest(path + " is too large");
        }
        return amount.longValueExact();
    }

    static Currency currency(String code, String path) {
        if (!CURRENCY.matcher(code).matches()) {
            throw PaymentsException.invalidRequest(path + " must be an ISO 4217 currency code");
        }
        try {
            return Currency.getInstance(code.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw PaymentsException.invalidRequest(path + " must be an ISO 4217 currency code");
        }
    }

    public static PaymentsException missing(String path) {
        return PaymentsException.invalidRequest(path + " is required");
    }
}
