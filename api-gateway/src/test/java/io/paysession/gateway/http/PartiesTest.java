package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartiesTest {

    private static ObjectNode json(String text) {
        return JsonBodies.readObject(text.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"payer@example.com", "first.last+tag@mail.example.co.uk", "и@пример.рф"})
    void contactEmailsOfTheUsualFormAreAccepted(String email) {
        ObjectNode customer = json("{\"reference\":\"c\",\"contacts\":[{\"email\":\"" + email + "\"}]}");
        assertThat(Parties.customer(customer, true).at("/contacts/0/email").asText()).isEqualTo(email);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "payer", "payer@", "@example.com", "payer@example", "a b@example.com", "a@b@example.com",
            "payer@example..com"})
    void contactEmailsThatAreNoAddressesAreRefusedNamingTheContact(String email) {
        ObjectNode customer = json("{\"reference\":\"c\",\"contacts\":[{\"phone\":\"79261234567\"},{\"email\":\"" + email + "\"}]}");
        assertThatThrownBy(() -> Parties.customer(customer, true)).isInstanceOf(PaymentsException.class)
                .hasMessage("customer.contacts[1].email must be an e-mail address");
    }

    @ParameterizedTest
    @ValueSource(strings = {"7926123", "+7 926 123 45 67", "phone", "1234567890123456"})
    void contactPhonesAreTenToFifteenDigits(String phone) {
        ObjectNode customer = json("{\"reference\":\"c\",\"contacts\":[{\"phone\":\"" + phone + "\"}]}");
        assertThatThrownBy(() -> Parties.customer(customer, true))
                .hasMessage("customer.contacts[0].phone must be 10 to 15 digits");
        assertThat(Parties.customer(json("{\"contacts\":[{\"phone\":\"+79261234567\"}]}"), false)).isNotNull();
    }

    @Test
    void aPaymentsCustomerNeedsAReferenceAndAPayoutsMayGoWithout() {
        assertThatThrownBy(() -> Parties.customer(json("{\"contacts\":[]}"), true))
                .hasMessage("customer.reference is required");
        assertThat(Parties.customer(json("{\"contacts\":[]}"), false).has("reference")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "203.0.113.7", "255.255.255.255", "10.0.0.1"})
    void senderAddressesInDottedDecimalAreAccepted(String address) {
        assertThat(Parties.participants(json("{\"sender\":{\"ipv4\":\"" + address + "\"}}")).at("/sender/ipv4").asText())
                .isEqualTo(address);
    }

    @ParameterizedTest
    @ValueSource(strings = {"256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "::1", "1.2.3.4 ", "a.b.c.d", ""})
    void senderAddressesThatAreNotIpv4AreRefused(String address) {
        assertThatThrownBy(() -> Parties.participants(json("{\"sender\":{\"ipv4\":\"" + address + "\"}}")))
                .hasMessage("participant_details.sender.ipv4 must be an IPv4 address");
    }

    @ParameterizedTest
    @CsvSource({"sender, RU", "sender, XXX", "recipient, ru", "recipient, RUSS"})
    void countriesOfSenderAndRecipientAreIsoAlpha3Codes(String party, String country) {
        assertThatThrownBy(() -> Parties.participants(json("{\"" + party + "\":{\"country_iso3\":\"" + country + "\"}}")))
                .hasMessage("participant_details." + party + ".country_iso3 must be an ISO 3166 alpha-3 code");
        assertThat(Parties.participants(json("{\"" + party + "\":{\"country_iso3\":\"rus\"}}"))).isNotNull();
    }

    @Test
    void theNamedTextFieldsOfParticipantsMustBeStrings() {
        assertThatThrownBy(() -> Parties.participants(json("{\"sender\":{\"company_name\":{}}}")))
                .hasMessage("participant_details.sender.company_name must be a string");
        assertThatThrownBy(() -> Parties.participants(json("{\"recipient\":{\"bank_name\":7}}")))
                .hasMessage("participant_details.recipient.bank_name must be a string");
        assertThatThrownBy(() -> Parties.participants(json("{\"recipient\":{\"full_name\":\"John 2nd\"}}")))
                .hasMessage("participant_details.recipient.full_name must be written in Latin or Cyrillic letters");
    }

    @Test
    void unknownFieldsAreKeptAndNullsDropped() {
        assertThat(Parties.participants(json("{\"sender\":{\"ipv4\":\"1.2.3.4\",\"extra\":{\"a\":null,\"b\":1}}}"))
                .toString()).isEqualTo("{\"sender\":{\"ipv4\":\"1.2.3.4\",\"extra\":{\"b\":1}}}");
    }
}
