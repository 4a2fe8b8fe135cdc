package io.paysession.webhook.delivery;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a partner's webhook URL may point at, as the operator registering it and the attempt log see it. */
class WebhookDestinationsTest {

    /** A resolver answering from a table, as a partner's (or an attacker's) DNS zone would. */
    private static WebhookDestinations.Resolver zone(Map<String, List<String>> records) {
        return host -> {
            List<String> addresses = records.get(host);
            if (addresses == null) {
                return InetAddress.getAllByName(host); // literals resolve without DNS
            }
            InetAddress[] resolved = new InetAddress[addresses.size()];
            for (int i = 0; i < resolved.length; i++) {
                resolved[i] = InetAddress.getByName(addresses.get(i));
            }
            return resolved;
        };
    }

    private static WebhookDestinations destinations(List<String> allowed) {
        return new WebhookDestinations(allowed, url -> false, zone(Map.of(
                "metadata.attacker.example", List.of("169.254.169.254"),
                "intranet.attacker.example", List.of("10.1.2.3", "fd00::5"),
                "mixed.example", List.of("10.1.2.3", "93.184.215.14"),
                "shop.example", List.of("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"))));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "http://127.0.0.1:8080/hooks", "http://127.1.2.3/hooks", "http://0.0.0.0/", "http://10.0.0.1/",
            "http://172.16.0.1/", "http://172.31.255.254/", "http://192.168.1.1/", "http://100.64.0.1/",
            "http://100.127.255.254/", "http://169.254.169.254/latest/meta-data/", "http://224.0.0.1/",
            "http://239.255.255.250/", "http://255.255.255.255/", "http://198.18.0.1/", "http://192.0.2.10/",
            "http://[::1]/", "http://[::]/", "http://[fe80::1]/", "http://[fd12:3456::1]/", "http://[fc00::1]/",
            "http://[ff02::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:a9fe:a9fe]/",
            "http://[64:ff9b::a9fe:a9fe]/", "http://[2002:a9fe:a9fe::1]/", "http://[::10.0.0.1]/",
            "https://[fec0::1]/", "https://[2001:db8::1]/"})
    void internalAddressesAreRefusedByDefault(String url) {
        assertThat(destinations(List.of()).refusal(url)).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("must not point at an internal address")
                .contains("payments.webhooks.allowed-networks"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://93.184.215.14/hooks", "http://172.32.0.1/", "http://172.15.255.254/",
            "http://100.128.0.1/", "http://192.169.0.1/", "https://[2606:4700:4700::1111]/hooks",
            "http://[64:ff9b::5db8:d70e]/", "https://shop.example/hooks"})
    void publicAddressesAndNamesThatResolveToThemAreAccepted(String url) {
        assertThat(destinations(List.of()).refusal(url)).isEmpty();
    }

    @Test
    void theRefusalNamesTheAddressAndItsRange() {
        assertThat(destinations(List.of()).refusal("http://169.254.169.254/latest/meta-data/"))
                .hasValue("must not point at an internal address: the address 169.254.169.254 (link-local, "
                        + "169.254.0.0/16); " + WebhookDestinations.ALLOWANCE_HINT);
        assertThat(destinations(List.of()).refusal("http://[::ffff:a9fe:a9fe]/")).get().asString()
                .contains("169.254.169.254 (link-local, 169.254.0.0/16)");
    }

    @Test
    void aHostNameThatResolvesToARefusedAddressIsRefused() {
        WebhookDestinations destinations = destinations(List.of());

        assertThat(destinations.refusal("https://metadata.attacker.example/hooks")).get().asString()
                .contains("metadata.attacker.example resolves only to refused addresses: 169.254.169.254 (link-local");
        assertThat(destinations.refusal("https://intranet.attacker.example/hooks")).get().asString()
                .contains("10.1.2.3 (private, 10.0.0.0/8)", "fd00::5 (unique local (private), fc00::/7)");
    }

    @Test
    void localhostIsRefusedThroughTheMachinesOwnResolver() throws UnknownHostException {
        WebhookDestinations destinations = new WebhookDestinations(List.of(), url -> false, InetAddress::getAllByName);

        assertThat(destinations.refusal("http://localhost:8080/hooks")).get().asString()
                .contains("localhost resolves only to refused addresses", "(loopback, ");
        assertThatThrownBy(() -> destinations.permittedAddresses("localhost"))
                .isInstanceOf(RefusedDestinationException.class);
    }

    @Test
    void anAllowedNetworkLetsItsAddressesThroughAndNoOthers() throws UnknownHostException {
        WebhookDestinations destinations = destinations(List.of("127.0.0.0/8"));

        assertThat(destinations.refusal("http://127.0.0.1:8080/hooks")).isEmpty();
        assertThat(destinations.refusal("http://[::ffff:127.0.0.1]:8080/hooks")).as("its IPv6 form").isEmpty();
        assertThat(destinations.permittedAddresses("127.0.0.1")).containsExactly(InetAddress.getByName("127.0.0.1"));
        assertThat(destinations.refusal("http://169.254.169.254/latest/meta-data/")).isPresent();
        assertThat(destinations.refusal("http://10.0.0.1/")).isPresent();
        assertThat(destinations.refusal("http://[::1]/")).as("IPv6 loopback is another network").isPresent();
    }

    @Test
    void aMappedIPv6AnswerOfTheResolverIsJudgedByTheIPv4AddressItCarries() throws UnknownHostException {
        byte[] mapped = HexFormat.of().parseHex("00000000000000000000ffffa9fea9fe");
        InetAddress answer = Inet6Address.getByAddress(null, mapped, -1);
        assertThat(answer).isInstanceOf(Inet6Address.class);

        assertThat(destinations(List.of()).refusal(answer)).get().asString()
                .contains("the IPv6 form of 169.254.169.254 (link-local");
        assertThat(destinations(List.of("169.254.169.254")).refusal(answer)).isEmpty();
    }

    @Test
    void onlyThePermittedAddressesOfANameAreConnectedTo() throws UnknownHostException {
        assertThat(destinations(List.of()).permittedAddresses("mixed.example"))
                .containsExactly(InetAddress.getByName("93.184.215.14"));
    }

    @Test
    void aHostThatDoesNotResolveYetIsAcceptedAtRegistrationAndCheckedAtEachAttempt() {
        WebhookDestinations destinations = new WebhookDestinations(List.of(), url -> false, host -> {
            throw new UnknownHostException(host);
        });

        assertThat(destinations.refusal("https://not-yet.example/hooks")).isEmpty();
        assertThatThrownBy(() -> destinations.permittedAddresses("not-yet.example"))
                .isInstanceOf(UnknownHostException.class)
                .isNotInstanceOf(RefusedDestinationException.class);
    }

    @Test
    void theServicesOwnInboxNeedsNoAllowance() {
        URI inbox = URI.create("http://localhost:8080/sandbox/webhooks/demo");
        WebhookDestinations destinations = new WebhookDestinations(List.of(), inbox::equals, InetAddress::getAllByName);

        assertThat(destinations.refusal(inbox.toString())).isEmpty();
        assertThat(destinations.refusal("http://localhost:8080/admin/v1/partners")).isPresent();
        assertThat(destinations.refusal("http://localhost:8081/sandbox/webhooks/demo")).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "10.0.0.0/33", "*", "1.2.3.4-5", "10.0.0.0/8/8", "example.com/24", "::1/129"})
    void anAllowanceThatIsNoAddressOrRangeStopsTheStart(String network) {
        assertThatThrownBy(() -> destinations(List.of(network)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("payments.webhooks.allowed-networks")
                .hasMessageContaining(network);
    }

    @Test
    void allowancesMayCarrySpacesAsAnEnvironmentVariableListDoes() {
        WebhookDestinations destinations = destinations(List.of(" 127.0.0.0/8", " ::1/128 ", ""));

        assertThat(destinations.refusal("http://127.0.0.1/")).isEmpty();
        assertThat(destinations.refusal("http://[::1]/")).isEmpty();
    }
}
