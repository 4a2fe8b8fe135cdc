package io.paysession.api.erasure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.partner.PartnerRegisteredEvent;
import io.paysession.api.partner.PartnerSettings;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.partner.PartnerUpdatedEvent;
import io.paysession.api.recurrent.RecurrentTokenDisabledEvent;
import io.paysession.api.recurrent.RecurrentTokenIssuedEvent;
import io.paysession.api.recurrent.RecurrentTokenUsedEvent;
import io.paysession.api.session.*;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.paysession.api.wire.PaymentJson;

import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * Which parts of the stored events are personal data (issue 22, erasure by crypto-shredding): the one classification
 * the inventory (docs/erasure.md), its test and the encrypting serializer read.
 * <p>
 * Every record component of an event and of the value types it carries has a {@link Rule}: {@link Kind#PERSONAL}
 * (the value, and everything under it when it is free-form JSON, is personal data; a few members inside it may be
 * declared clear because the engine acts on them), {@link Kind#CLEAR} (with the reason it is not personal) or
 * {@link Kind#NESTED} (a value type with rules of its own; a sealed interface is the union of its subtypes, which
 * share the JSON path). Components of types that cannot hold personal data by construction (numbers, booleans,
 * enums, instants, currencies, the validated ids) need no rule. {@code PersonalDataInventoryTest} fails when a
 * component has neither.
 * <p>
 * Paths are JSON paths as {@code PaymentJson.newObjectMapper()} writes the event: record component names, dots
 * between members, arrays stepped through transparently.
 */
public final class PersonalData {

    public enum Kind { PERSONAL, CLEAR, NESTED }

    /** The classification of one record component; {@code clearInside}: members of a personal JSON tree kept clear. */
    public record Rule(Kind kind, String reason, Set<String> clearInside) {
    }

    /** One personal JSON path of an event, with the relative paths under it that stay clear. */
    public record PersonalPath(String path, Set<String> clearInside) {

        public List<String> segments() {
            return List.of(path.split("\\."));
        }
    }

    /** The types whose values cannot be personal data: no free text can be put into them. */
    public static final Set<Class<?>> STRUCTURAL = Set.of(boolean.class, Boolean.class, int.class, Integer.class,
            long.class, Long.class, Instant.class, Currency.class, SessionId.class, PaymentId.class, PayoutId.class,
            RefundId.class, PartnerId.class);

    /** The events of {@code payment-api}: every class stored in the event store. */
    public static final List<Class<?>> EVENTS = List.of(
            SessionCreatedEvent.class, PaymentStartedEvent.class, PaymentReadyToConfirmEvent.class,
            PaymentConfirmedEvent.class, PaymentActionRequiredEvent.class, PaymentAuthorizedEvent.class,
            PaymentSucceededEvent.class, PaymentFailedEvent.class, PaymentOutcomeUnknownEvent.class,
            PaymentOutcomeQueryRequestedEvent.class, PaymentOutcomeOverdueEvent.class,
            PaymentCaptureRequestedEvent.class, PaymentCaptureOutcomeUnknownEvent.class,
            PaymentCaptureQueryRequestedEvent.class, PaymentHoldReleasedEvent.class, RefundRequestedEvent.class,
            RefundAcceptedEvent.class, RefundDeclinedEvent.class, RefundOutcomeUnknownEvent.class,
            RefundOutcomeQueryRequestedEvent.class, RefundOutcomeOverdueEvent.class, ChargebackOpenedEvent.class,
            SessionCancelledEvent.class, PayoutStartedEvent.class, PayoutReadyToConfirmEvent.class,
            PayoutConfirmedEvent.class, PayoutSucceededEvent.class, PayoutFailedEvent.class,
            PayoutOutcomeUnknownEvent.class, PayoutOutcomeQueryRequestedEvent.class, PayoutOutcomeOverdueEvent.class,
            RecurrentTokenGrantedEvent.class, RecurrentTokenFinishedEvent.class, PartnerRegisteredEvent.class,
            PartnerUpdatedEvent.class, RecurrentTokenIssuedEvent.class, RecurrentTokenUsedEvent.class,
            RecurrentTokenDisabledEvent.class, PersonalDataErasedEvent.class, ErasureRequestedEvent.class);

    private static final Map<Class<?>, Map<String, Rule>> RULES = new LinkedHashMap<>();
    private static final Map<Class<?>, List<PersonalPath>> PATHS = new ConcurrentHashMap<>();

    static {
        // personal data the partner sends about its customer, free-form
        rules(PaymentData.class)
                .nested("method")
                .nested("amount")
                .personal("customer", "reference, contacts (e-mails, phones) and any member the partner adds")
                .personal("paymentOptions", "description, platform_details (os, browser) and any added member",
                        "recurrent", "platform_details.recurrent", "platform_details.type")
                .personal("participantDetails", "recipient and sender names, documents, ipv4, company details")
                .personal("metadata", "free-form partner data")
                .personal("items", "free-form partner data (item names)");
        rules(PayoutData.class)
                .nested("method")
                .nested("amount")
                .personal("customer", "reference, contacts")
                .personal("participantDetails", "recipient names (required for card and bank payouts), sender")
                .personal("metadata", "free-form partner data");
        rules(CardMethod.class)
                .clear("vaultToken", "a token of the card vault: the card number is in card_vault, erased apart")
                .clear("brand", "card scheme")
                .clear("bin", "2 to 8 leading digits (PCI DSS truncation; the constructor checks [0-9]{2,8})")
                .clear("last4", "4 last digits (PCI DSS truncation; the constructor checks [0-9]{4})");
        rules(QrAppMethod.class)
                .personal("phone", "the payer's phone")
                .clear("channel", "mobile_web, desktop, ...: chosen by the partner's checkout");
        rules(FasterPaymentMethod.class).personal("description", "free text of the payment purpose");
        rules(RecurrentMethod.class)
                .clear("token", "the service's own recurrent token id (rt_...), needed to disable it")
                .clear("initiator", "merchant or client")
                .nested("source");
        rules(WalletMethod.class);
        rules(BankAppMethod.class);
        rules(FasterPaymentBindingMethod.class);
        rules(PayoutMethod.Card.class)
                .clear("source", "how the partner named the card: bank_card, encrypted_card, tokenized_card")
                .clear("vaultToken", "a token of the card vault")
                .clear("brand", "card scheme")
                .clear("bin", "leading digits (PCI DSS truncation)")
                .clear("last4", "4 last digits (PCI DSS truncation)");
        rules(PayoutMethod.Iban.class)
                .clear("systemType", "global or iban")
                .personal("iban", "the recipient's account number")
                .personal("description", "free text");
        rules(PayoutMethod.FasterPayment.class)
                .personal("phone", "the recipient's phone")
                .clear("bankId", "a bank of the instant-payment directory")
                .personal("description", "free text");
        rules(PayoutMethod.FasterPaymentVerification.class)
                .personal("phone", "the recipient's phone")
                .clear("bankId", "a bank of the instant-payment directory");
        rules(Money.class).clear("minorUnits", "an amount").clear("currency", "ISO 4217");
        rules(FeeSchedule.class).clear("percentBp", "the partner's fee").clear("fixed", "the partner's fee");
        rules(PartnerTerms.class)
                .clear("captureMode", "auto or delayed")
                .nested("fees")
                .clear("bankAccountToken", "a flag of the partner's contract");
        rules(PartnerSettings.class)
                .clear("publicKeyPem", "the partner's (a business's) public key, published data")
                .clear("webhookUrl", "the partner's endpoint, a business's address")
                .clear("captureMode", "the partner's contract")
                .nested("fees")
                .clear("bankAccountToken", "the partner's contract")
                .clear("payoutFromBalance", "the partner's contract")
                .clear("secondPublicKeyPem", "the partner's public key");
        rules(RailOrder.class)
                .nested("method")
                .nested("amount")
                .clear("captureMode", "auto or delayed")
                .personal("returnUrl", "payment_options.return_url again: the partner's page, may carry the "
                        + "customer's order or e-mail in its query");
        rules(TransactionInfo.class)
                .clear("rrn", "the rail's reference of the transaction")
                .clear("authCode", "the issuer's approval code")
                .clear("fpMessageId", "the instant-payment system's message id")
                .personal("bankAccountRuToken", "a token standing for the payer's bank account across payments");
        rules(ErrorDetails.class)
                .clear("code", "an ErrorCode")
                .clear("description", "written by the service and its rail adapters, never the partner's text");
        rules(CustomerInteraction.Redirect.class)
                .clear("url", "the provider's page for the payer (hosted 3-D Secure, wallet, bank application)")
                .clear("baseUrl", "the same page")
                .clear("method", "GET or POST")
                .clear("qs", "the provider's parameters of that page (ids of the interaction)")
                .clear("params", "the provider's form parameters of that page");
        rules(CustomerInteraction.InformQr.class).clear("content", "a deeplink to the provider's page");

        // the events
        rules(SessionCreatedEvent.class)
                .clear("project", "the partner")
                .clear("apiVersion", "v1 or v2")
                .nested("paymentDraft")
                .nested("payoutDraft")
                .clear("multi", "a flag");
        rules(PaymentStartedEvent.class).nested("payment").nested("terms");
        rules(PaymentReadyToConfirmEvent.class);
        rules(PaymentConfirmedEvent.class).nested("order");
        rules(PaymentActionRequiredEvent.class).nested("interaction");
        rules(PaymentAuthorizedEvent.class).nested("transactionInfo");
        rules(PaymentSucceededEvent.class).nested("transactionInfo").nested("capturedAmount").nested("merchantFee");
        rules(PaymentFailedEvent.class).nested("error").nested("sessionError");
        rules(PaymentOutcomeUnknownEvent.class).nested("reason");
        rules(PaymentOutcomeQueryRequestedEvent.class).nested("order");
        rules(PaymentOutcomeOverdueEvent.class).nested("error").nested("sessionError");
        rules(PaymentCaptureRequestedEvent.class).nested("order").nested("captureAmount");
        rules(PaymentCaptureOutcomeUnknownEvent.class).nested("reason");
        rules(PaymentCaptureQueryRequestedEvent.class).nested("order").nested("captureAmount");
        rules(PaymentHoldReleasedEvent.class).nested("order");
        rules(RefundRequestedEvent.class).nested("order").nested("amount")
                .personal("metadata", "free-form partner data of the refund");
        rules(RefundAcceptedEvent.class);
        rules(RefundDeclinedEvent.class).nested("reason");
        rules(RefundOutcomeUnknownEvent.class).nested("reason");
        rules(RefundOutcomeQueryRequestedEvent.class).nested("order").nested("amount");
        rules(RefundOutcomeOverdueEvent.class).nested("error");
        rules(ChargebackOpenedEvent.class).nested("amount")
                .personal("reason", "free text of the operator, the rail or the sandbox about the dispute");
        rules(SessionCancelledEvent.class).nested("error");
        rules(PayoutStartedEvent.class).nested("payout");
        rules(PayoutReadyToConfirmEvent.class);
        rules(PayoutConfirmedEvent.class).nested("payout");
        rules(PayoutSucceededEvent.class).nested("transactionInfo");
        rules(PayoutFailedEvent.class).nested("error").nested("sessionError");
        rules(PayoutOutcomeUnknownEvent.class).nested("reason");
        rules(PayoutOutcomeQueryRequestedEvent.class).nested("payout");
        rules(PayoutOutcomeOverdueEvent.class).nested("error").nested("sessionError");
        rules(RecurrentTokenGrantedEvent.class)
                .clear("token", "the service's recurrent token id")
                .clear("project", "the partner")
                .nested("source");
        rules(RecurrentTokenFinishedEvent.class).clear("token", "the service's recurrent token id");
        rules(PartnerRegisteredEvent.class).nested("settings").clear("registeredAt", "a time");
        rules(PartnerUpdatedEvent.class).nested("settings").clear("updatedAt", "a time");
        rules(RecurrentTokenIssuedEvent.class)
                .clear("token", "the service's recurrent token id")
                .clear("project", "the partner")
                .nested("source");
        rules(RecurrentTokenUsedEvent.class).clear("token", "the service's recurrent token id");
        rules(RecurrentTokenDisabledEvent.class).clear("token", "the service's recurrent token id");
        rules(PersonalDataErasedEvent.class).clear("erasureId", "the service's id of the erasure");
        rules(ErasureRequestedEvent.class)
                .clear("erasureId", "the service's id of the erasure")
                .clear("project", "the partner")
                .clear("requestedBy", "the operator's admin credential name, not a data subject");
    }

    private PersonalData() {
    }

    /** The rule of component {@code component} of {@code type}, if it has one. */
    public static Optional<Rule> rule(Class<?> type, String component) {
        return Optional.ofNullable(RULES.getOrDefault(type, Map.of()).get(component));
    }

    /** Every type that has rules (events and value types). */
    public static Set<Class<?>> classified() {
        return RULES.keySet();
    }

    /** Whether {@code type}'s values can hold no personal data by construction. */
    public static boolean structural(Class<?> type) {
        return STRUCTURAL.contains(type) || type.isEnum() || type.isPrimitive();
    }

    /** The personal JSON paths of {@code type} (an event), in the order of its components. */
    public static List<PersonalPath> personalPaths(Class<?> type) {
        return PATHS.computeIfAbsent(type, t -> {
            List<PersonalPath> paths = new ArrayList<>();
            collect(t, "", paths, new java.util.ArrayDeque<>());
            return List.copyOf(paths);
        });
    }

    private static void collect(Class<?> type, String prefix, List<PersonalPath> into, java.util.Deque<Class<?>> within) {
        for (Class<?> concrete : concreteTypes(type)) {
            // a recurrent method's source is any method but a recurrent one (its constructor refuses that)
            if (!concrete.isRecord() || within.contains(concrete)) {
                continue;
            }
            within.push(concrete);
            for (RecordComponent component : concrete.getRecordComponents()) {
                Rule rule = RULES.getOrDefault(concrete, Map.of()).get(component.getName());
                if (rule == null) {
                    continue;
                }
                String path = prefix + component.getName();
                switch (rule.kind()) {
                    case PERSONAL -> {
                        PersonalPath personal = new PersonalPath(path, rule.clearInside());
                        if (!into.contains(personal)) {
                            into.add(personal);
                        }
                    }
                    case NESTED -> collect(component.getType(), path + ".", into, within);
                    case CLEAR -> {
                    }
                }
            }
            within.pop();
        }
    }

    /** A record's own type, or every permitted subtype (recursively) of a sealed interface. */
    public static List<Class<?>> concreteTypes(Class<?> type) {
        if (type.isSealed()) {
            List<Class<?>> types = new ArrayList<>();
            for (Class<?> permitted : type.getPermittedSubclasses()) {
                types.addAll(concreteTypes(permitted));
            }
            return types;
        }
        return List.of(type);
    }

    /**
     * Replaces, in {@code root} (the JSON of an event of {@code type}, changed in place), every personal leaf (a string,
     * number or boolean under a personal path, not under one of its clear members; nulls are left) by what
     * {@code rewrite} makes of it. Arrays are stepped through. Object member names are kept.
     */
    public static void rewriteLeaves(JsonNode root, Class<?> type, UnaryOperator<JsonNode> rewrite) {
        for (PersonalPath personal : personalPaths(type)) {
            rewriteAt(root, personal.segments(), 0, personal.clearInside(), rewrite);
        }
    }

    private static void rewriteAt(JsonNode node, List<String> segments, int index, Set<String> clearInside,
                                  UnaryOperator<JsonNode> rewrite) {
        if (node instanceof ArrayNode array) {
            for (JsonNode element : array) {
                rewriteAt(element, segments, index, clearInside, rewrite);
            }
            return;
        }
        if (!(node instanceof ObjectNode object) || !object.has(segments.get(index))) {
            return;
        }
        String name = segments.get(index);
        if (index == segments.size() - 1) {
            object.set(name, rewritten(object.get(name), "", clearInside, rewrite));
        } else {
            rewriteAt(object.get(name), segments, index + 1, clearInside, rewrite);
        }
    }

    private static JsonNode rewritten(JsonNode node, String relative, Set<String> clearInside,
                                      UnaryOperator<JsonNode> rewrite) {
        if (!relative.isEmpty() && clearInside.contains(relative)) {
            return node;
        }
        if (node instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                object.set(name, rewritten(object.get(name), relative.isEmpty() ? name : relative + "." + name,
                        clearInside, rewrite));
            }
            return object;
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, rewritten(array.get(i), relative, clearInside, rewrite));
            }
            return array;
        }
        if (node == null || node.isNull() || node.isMissingNode()) {
            return node;
        }
        return rewrite.apply(node);
    }

    /** What an erased personal value reads as, in events, views, webhooks and answers. */
    public static final String PLACEHOLDER = "[erased]";

    /** How an encrypted personal value starts, as a JSON string: {@code "pii:v1:<key id>:<ciphertext>"}. */
    public static final String ENCRYPTED_PREFIX = "pii:v1:";
    private static final byte[] ENCRYPTED_MARK = ("\"" + ENCRYPTED_PREFIX).getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** Whether a stored JSON payload holds an encrypted personal value (a byte search, no parsing). */
    public static boolean holdsEncrypted(byte[] payload) {
        return io.paysession.api.wire.Bytes.contains(payload, ENCRYPTED_MARK);
    }

    private static final ObjectMapper JSON = PaymentJson.newObjectMapper();

    /**
     * {@code value} (of a classified value type, or free-form JSON) with every personal leaf replaced by
     * {@link #PLACEHOLDER}, as it reads back from events whose key was erased; null stays null. What the fold and the
     * aggregate make of their own copies when a session's data is erased, so that they agree with a replay.
     */
    @SuppressWarnings("unchecked")
    public static <T> T erased(T value, Class<T> type) {
        if (value == null) {
            return null;
        }
        if (value instanceof JsonNode node) {
            return (T) rewritten(node.deepCopy(), "", Set.of(), leaf -> TextNode.valueOf(PLACEHOLDER));
        }
        ObjectNode wrapper = JSON.createObjectNode();
        wrapper.set("value", JSON.valueToTree(value));
        for (PersonalPath personal : personalPaths(type)) {
            List<String> segments = new ArrayList<>(personal.segments());
            segments.add(0, "value");
            rewriteAt(wrapper, segments, 0, personal.clearInside(), leaf -> TextNode.valueOf(PLACEHOLDER));
        }
        try {
            return JSON.treeToValue(wrapper.get("value"), type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an erased " + type.getSimpleName() + " does not read back", e);
        }
    }

    /**
     * The customer references an event names (the {@code customer.reference} of the payment or payout data it
     * carries): what an erasure request finds the subject's sessions by.
     */
    public static List<String> customerReferences(Object event) {
        List<String> references = new ArrayList<>();
        if (event instanceof SessionCreatedEvent created) {
            if (created.paymentDraft() != null) {
                addReference(created.paymentDraft().customer(), references);
            }
            if (created.payoutDraft() != null) {
                addReference(created.payoutDraft().customer(), references);
            }
        } else if (event instanceof PaymentStartedEvent started && started.payment() != null) {
            addReference(started.payment().customer(), references);
        } else if (event instanceof PayoutStartedEvent started && started.payout() != null) {
            addReference(started.payout().customer(), references);
        }
        return references;
    }

    private static void addReference(JsonNode customer, List<String> into) {
        if (customer != null && customer.path("reference").isTextual() && !into.contains(customer.get("reference").textValue())) {
            into.add(customer.get("reference").textValue());
        }
    }

    private static Rules rules(Class<?> type) {
        return new Rules(RULES.computeIfAbsent(type, t -> new LinkedHashMap<>()));
    }

    private record Rules(Map<String, Rule> rules) {

        Rules personal(String component, String what, String... clearInside) {
            rules.put(component, new Rule(Kind.PERSONAL, what, Set.of(clearInside)));
            return this;
        }

        Rules clear(String component, String why) {
            rules.put(component, new Rule(Kind.CLEAR, why, Set.of()));
            return this;
        }

        Rules nested(String component) {
            rules.put(component, new Rule(Kind.NESTED, "", Set.of()));
            return this;
        }
    }
}
