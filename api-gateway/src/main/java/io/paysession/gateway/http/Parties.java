package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The people around an operation, as payments and payouts both carry them: {@code customer} (the partner's
 * reference and contacts) and {@code participant_details} (recipient and sender). Each known field is checked
 * for its type and form, naming the field; unknown fields are kept, as everywhere.
 */
final class Parties {

    static final Pattern PHONE = Pattern.compile("\\+?[0-9]{10,15}");
    /** Pragmatic, not RFC 5322: one {@code @}, no spaces, a dot in the domain, at most 254 characters. */
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s.]+(\\.[^@\\s.]+)+");
    /** Dotted decimal, each part 0 to 255 without leading zeros (which some readers take as octal). */
    private static final Pattern IPV4 = Pattern.compile(
            "((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])");
    /** Latin or Cyrillic letters, with spaces, hyphens, apostrophes and dots between words. */
    private static final Pattern PERSON_NAME = Pattern.compile(
            "[\\p{IsLatin}\\p{IsCyrillic}][\\p{IsLatin}\\p{IsCyrillic} .'-]{0,254}");
    private static final Set<String> COUNTRIES = Set.copyOf(Locale.getISOCountries(Locale.IsoCountryCode.PART1_ALPHA3));
    private static final int MAX_TEXT = 255;

    private Parties() {
    }

    /** {@code customer}: {@code reference} (required for payments), {@code contacts} of e-mails and phones. */
    static JsonNode customer(ObjectNode customer, boolean referenceRequired) {
        Optional<String> reference = referenceRequired
                ? Optional.of(Fields.requiredText(customer, "reference", "customer"))
                : Fields.text(customer, "reference", "customer");
        reference.filter(text -> text.length() > MAX_TEXT).ifPresent(text -> {
            throw PaymentsException.invalidRequest("customer.reference must be at most 255 characters");
        });
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
                Fields.text(contact, "email", path).ifPresent(email -> {
                    if (email.length() > 254 || !EMAIL.matcher(email).matches()) {
                        throw PaymentsException.invalidRequest(path + ".email must be an e-mail address");
                    }
                });
                Fields.text(contact, "phone", path).ifPresent(phone -> {
                    if (!PHONE.matcher(phone).matches()) {
                        throw PaymentsException.invalidRequest(path + ".phone must be 10 to 15 digits");
                    }
                });
            }
        }
        return JsonBodies.withoutNulls(customer);
    }

    /**
     * {@code participant_details}: recipient names Latin or Cyrillic, currencies ISO 4217, countries ISO 3166
     * alpha-3 (recipient and sender), the sender's {@code ipv4} an IPv4 address, the other named fields strings.
     */
    static JsonNode participants(ObjectNode participants) {
        Fields.object(participants, "recipient", "participant_details").ifPresent(recipient -> {
            String path = "participant_details.recipient";
            for (String field : new String[]{"full_name", "first_name", "last_name", "middle_name"}) {
                Fields.text(recipient, field, path).ifPresent(value -> {
                    if (!PERSON_NAME.matcher(value.trim()).matches()) {
                        throw PaymentsException.invalidRequest(path + "." + field
                                + " must be written in Latin or Cyrillic letters");
                    }
                });
            }
            texts(recipient, path, "bank_name", "document");
            Fields.text(recipient, "currency", path).ifPresent(code -> Fields.currency(code, path + ".currency"));
            country(recipient, path);
        });
        Fields.object(participants, "sender", "participant_details").ifPresent(sender -> {
            String path = "participant_details.sender";
            texts(sender, path, "company_name", "registration_number", "code", "full_name");
            country(sender, path);
            Fields.text(sender, "ipv4", path).ifPresent(address -> {
                if (!IPV4.matcher(address).matches()) {
                    throw PaymentsException.invalidRequest(path + ".ipv4 must be an IPv4 address");
                }
            });
        });
        return JsonBodies.withoutNulls(participants);
    }

    private static void country(ObjectNode parent, String path) {
        Fields.text(parent, "country_iso3", path).ifPresent(code -> {
            if (!COUNTRIES.contains(code.toUpperCase(Locale.ROOT))) {
                throw PaymentsException.invalidRequest(path + ".country_iso3 must be an ISO 3166 alpha-3 code");
            }
        });
    }

    private static void texts(ObjectNode parent, String path, String... names) {
        for (String name : names) {
            Fields.text(parent, name, path).filter(text -> text.length() > MAX_TEXT).ifPresent(text -> {
                throw PaymentsException.invalidRequest(path + "." + name + " must be at most 255 characters");
            });
        }
    }
}
