package io.paysession.webhook.delivery;

import inet.ipaddr.AddressStringException;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv6.IPv6Address;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Where webhooks may go. A partner's {@code webhook_url} must not make the service post into its own network
 * (server-side request forgery: the cloud metadata service at 169.254.169.254, an admin port on loopback, a
 * database on a private address). Refused: loopback, unspecified, private, shared (CGNAT), link-local,
 * multicast, reserved and documentation ranges of IPv4 and IPv6, and the IPv6 forms that carry such an IPv4
 * address (IPv4-mapped, IPv4-compatible, NAT64, 6to4). An operator allows networks explicitly with
 * {@code payments.webhooks.allowed-networks}. The service's own sandbox inbox ({@link OwnWebhookInbox}) needs
 * no allowance.
 * <p>
 * The same rule runs twice: at registration, on the addresses the host resolves to then (advice to the
 * operator: a refusal names the address), and at every attempt, as the HTTP client's name resolution, so
 * that the connection is opened only to an address checked in that attempt; a name that resolved to a public
 * address at registration and to a private one later (DNS rebinding) is refused then. A name that resolves
 * to some refused and some permitted addresses is connected to the permitted ones only.
 */
@Component
public class WebhookDestinations {

    /** Name resolution; the JVM's resolver in the application. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    static final String ALLOWANCE_HINT = "webhooks do not go to loopback, private, link-local or other internal "
            + "networks unless an operator allows them with payments.webhooks.allowed-networks";

    private static final Pattern NETWORK = Pattern.compile("[0-9A-Fa-f:.]+(/[0-9]{1,3})?");

    private record Range(IPAddress block, String kind) {
        boolean contains(IPAddress address) {
            return block.getIPVersion() == address.getIPVersion() && block.contains(address);
        }

        String describe(IPAddress address) {
            return address.toCanonicalString() + " (" + kind + ", " + block.toPrefixLengthString() + ")";
        }
    }

    private static final List<Range> REFUSED = List.of(
            range("0.0.0.0/8", "unspecified"),
            range("10.0.0.0/8", "private"),
            range("100.64.0.0/10", "shared address space"),
            range("127.0.0.0/8", "loopback"),
            range("169.254.0.0/16", "link-local"),
            range("172.16.0.0/12", "private"),
            range("192.0.0.0/24", "IETF protocol assignments"),
            range("192.0.2.0/24", "documentation"),
            range("192.88.99.0/24", "6to4 relay anycast"),
            range("192.168.0.0/16", "private"),
            range("198.18.0.0/15", "benchmarking"),
            range("198.51.100.0/24", "documentation"),
            range("203.0.113.0/24", "documentation"),
            range("224.0.0.0/4", "multicast"),
            range("240.0.0.0/4", "reserved or broadcast"),
            range("::/128", "unspecified"),
            range("::1/128", "loopback"),
            range("100::/64", "discard-only"),
            range("64:ff9b:1::/48", "local-use NAT64"),
            range("2001::/32", "Teredo"),
            range("2001:db8::/32", "documentation"),
            range("fc00::/7", "unique local (private)"),
            range("fe80::/10", "link-local"),
            range("fec0::/10", "site-local"),
            range("ff00::/8", "multicast"));

    private final List<IPAddress> allowed;
    private final Predicate<URI> ownInbox;
    private final Resolver resolver;

    @Autowired
    public WebhookDestinations(WebhookProperties properties, ObjectProvider<OwnWebhookInbox> ownInbox) {
        this(properties.allowedNetworks(), url -> ownInbox.stream().anyMatch(inbox -> inbox.isOwnInbox(url)),
                InetAddress::getAllByName);
    }

    public WebhookDestinations(List<String> allowedNetworks, Predicate<URI> ownInbox, Resolver resolver) {
        this.allowed = allowedNetworks.stream().map(String::trim).filter(network -> !network.isEmpty())
                .map(WebhookDestinations::allowance).toList();
        this.ownInbox = ownInbox;
        this.resolver = resolver;
    }

    /**
     * At registration: why webhooks may not go to {@code webhookUrl}, as a sentence after the field's name;
     * empty when they may. A host that does not resolve (yet) is accepted: every attempt checks it again.
     */
    public Optional<String> refusal(String webhookUrl) {
        URI url;
        try {
            url = new URI(webhookUrl);
        } catch (URISyntaxException e) {
            return Optional.of("must be an absolute http or https URL");
        }
        if (url.getHost() == null || isOwnInbox(url)) {
            return Optional.empty();
        }
        try {
            permittedAddresses(url.getHost());
            return Optional.empty();
        } catch (RefusedDestinationException e) {
            return Optional.of("must not point at an internal address: " + e.getMessage() + "; " + ALLOWANCE_HINT);
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** True for a URL of the service's own sandbox inbox, which is delivered to on loopback without allowance. */
    public boolean isOwnInbox(URI url) {
        return ownInbox.test(url);
    }

    /**
     * At each attempt: the addresses of {@code host} that webhooks may go to, resolved now, in the resolver's
     * order. {@link RefusedDestinationException} when it resolves only to refused ones.
     */
    public List<InetAddress> permittedAddresses(String host) throws UnknownHostException {
        InetAddress[] resolved = resolver.resolve(host);
        List<InetAddress> permitted = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (InetAddress address : resolved) {
            refusal(address).ifPresentOrElse(refused::add, () -> permitted.add(address));
        }
        if (permitted.isEmpty()) {
            String name = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
            boolean literal = resolved.length == 1 && sameAddress(name, resolved[0]);
            throw new RefusedDestinationException(literal ? "the address " + String.join(", ", refused)
                    : name + " resolves only to refused addresses: " + String.join(", ", refused));
        }
        return permitted;
    }

    /** Why webhooks may not go to {@code address}; empty when they may. */
    Optional<String> refusal(InetAddress address) {
        IPAddress ip = ipOf(address);
        if (isAllowed(ip)) {
            return Optional.empty();
        }
        Optional<String> own = refusedRange(ip).map(range -> range.describe(ip));
        if (own.isPresent()) {
            return own;
        }
        IPv4Address embedded = embeddedIPv4(ip);
        if (embedded != null && !isAllowed(embedded)) {
            return refusedRange(embedded).map(range ->
                    ip.toCanonicalString() + " (the IPv6 form of " + range.describe(embedded) + ")");
        }
        return Optional.empty();
    }

    private boolean isAllowed(IPAddress ip) {
        return allowed.stream().anyMatch(network -> network.getIPVersion() == ip.getIPVersion() && network.contains(ip));
    }

    private static Optional<Range> refusedRange(IPAddress ip) {
        return REFUSED.stream().filter(range -> range.contains(ip)).findFirst();
    }

    /** The IPv4 address an IPv6 address stands for: IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96), 6to4. */
    private static IPv4Address embeddedIPv4(IPAddress ip) {
        if (!(ip instanceof IPv6Address v6)) {
            return null;
        }
        if (v6.isIPv4Mapped() || v6.isIPv4Compatible() || v6.isWellKnownIPv4Translatable()) {
            return v6.getEmbeddedIPv4Address();
        }
        if (v6.is6To4()) {
            return v6.get6To4IPv4Address();
        }
        return null;
    }

    private static boolean sameAddress(String host, InetAddress address) {
        IPAddress literal = new IPAddressString(host).getAddress();
        return literal != null && literal.toCanonicalString().equals(ipOf(address).toCanonicalString());
    }

    private static IPAddress ipOf(InetAddress address) {
        return address instanceof Inet4Address
                ? new IPv4Address(address.getAddress()) : new IPv6Address(address.getAddress());
    }

    private static IPAddress allowance(String network) {
        IPAddress parsed = null;
        if (NETWORK.matcher(network).matches()) {
            try {
                parsed = new IPAddressString(network).toAddress();
            } catch (AddressStringException | RuntimeException e) {
                parsed = null;
            }
        }
        if (parsed == null || (parsed.isMultiple() && !parsed.isPrefixed())) {
            throw new IllegalArgumentException("payments.webhooks.allowed-networks: '" + network
                    + "' is not an IPv4 or IPv6 address or CIDR range such as 127.0.0.0/8 or fd00::/8");
        }
        return parsed.isPrefixed() ? parsed.toPrefixBlock() : parsed;
    }

    private static Range range(String cidr, String kind) {
        return new Range(new IPAddressString(cidr).getAddress().toPrefixBlock(), kind);
    }
}
