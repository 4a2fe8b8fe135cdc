package io.paysession.api.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.partner.*;
import io.paysession.api.session.*;
import org.axonframework.serialization.Revision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.paysession.api.recurrent.*;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.money.Money;
import io.paysession.api.session.*;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.paysession.api.session.SessionFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

public class EventJsonRoundTripTest {

    private static final ObjectMapper JSON = PaymentJson.newObjectMapper();
    private static final List<String> MESSAGE_PACKAGES = List.of("io.paysession.api.session", "io.paysession.api.partner",
            "io.paysession.api.recurrent");
    private static final PartnerSettings SETTINGS = new PartnerSettings(
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----\n",
            "https://shop.example/webhooks", CaptureMode.DELAYED, new FeeSchedule(250, 30));

    /** One instance of every message; a message class without one fails {@link #everyMessageClassHasASample()}. */
    public static List<Object> messages() {
        PaymentData draft = new PaymentData(VISA, AMOUNT, null, null, null, json("{\"order\":\"o-7\"}"), null);
        return List.of(
                created(ApiVersion.V2),
                new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V1, draft, null, T0),
                new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V1, PaymentData.EMPTY, PAYOUT_DATA, T0),
                successfulPayment(ApiVersion.V1).get(1),
                successfulPayment(ApiVersion.V1).get(2),
                successfulPayment(ApiVersion.V1).get(3),
                successfulPayment(ApiVersion.V1).get(4),
                declinedPayment(ApiVersion.V1).get(4),
                new SessionCancelledEvent(SESSION, ErrorDetails.of(ErrorCode.CONFIRM_TIMEOUT, "Not confirmed in time"), at(9)),
                new PartnerRegisteredEvent(PartnerId.of(PROJECT), SETTINGS, T0),
                new PartnerUpdatedEvent(PartnerId.of(PROJECT), SETTINGS, at(1)),
                new CreateSessionCommand(SESSION, PROJECT, ApiVersion.V2, draft, null),
                new InitPaymentCommand(SESSION, PAYMENT, PROJECT, ApiVersion.V1, cardPayment(json("\"good\"")), TERMS),
                new StartPaymentCommand(SESSION, PAYMENT, PROJECT, cardPayment(json("{\"a\":[1,2]}")), TERMS),
                new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT),
                new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, new AuthorizationOutcome.Approved(TRANSACTION)),
                new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, new AuthorizationOutcome.Declined(DECLINE)),
                new RefusePaymentCommand(SESSION, PAYMENT, DECLINE),
                new ConfirmSessionCommand(SESSION, PROJECT),
                new CancelSessionCommand(SESSION, PROJECT),
                new FindSessionQuery(SESSION),
                new RegisterPartnerCommand(PartnerId.of(PROJECT), SETTINGS),
                new UpdatePartnerCommand(PartnerId.of(PROJECT), SETTINGS),
                new FindPartnerQuery(PROJECT),
                new RecurrentTokenGrantedEvent(SESSION, PAYMENT, "rt_1", PROJECT, VISA, at(4)),
                new RecurrentTokenFinishedEvent(SESSION, PAYMENT, "rt_1", at(7)),
                new SessionCreatedEvent(SESSION, PROJECT, ApiVersion.V2, PaymentData.EMPTY, PayoutData.EMPTY, T0, true),
                new InitMultiSessionCommand(SESSION, PROJECT, ApiVersion.V2,
                        List.of(new InitMultiSessionCommand.PaymentStart(PAYMENT, cardPayment(json("\"good\"")))),
                        List.of(new InitMultiSessionCommand.PayoutStart(PayoutId.of("po_3"), PAYOUT_DATA)), TERMS, true),
                new ChargebackOpenedEvent(SESSION, PAYMENT, RefundId.of("rf_9"), AMOUNT, "fraud", at(9)),
                new OpenChargebackCommand(SESSION, RefundId.of("rf_9"), PROJECT, null, "fraud", true),
                new PaymentOutcomeOverdueEvent(SESSION, PAYMENT, ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "unknown"),
                        ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "not final"), at(8)),
                new PayoutOutcomeOverdueEvent(SESSION, PayoutId.of("po_3"), ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT,
                        "unknown"), ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "not final"), at(8)),
                new RefundOutcomeOverdueEvent(SESSION, PAYMENT, RefundId.of("rf_9"), ErrorDetails.of(
                        ErrorCode.PROVIDER_TIMEOUT, "unknown"), at(8)),
                new EndRecurrentGrantCommand(SESSION, PAYMENT, "rt_1", at(7)),
                new IssueRecurrentTokenCommand("rt_1", PROJECT, SESSION, PAYMENT, new BankAppMethod(), at(4)),
                new UseRecurrentTokenCommand("rt_1", SESSION, PAYMENT, PROJECT),
                new DisableRecurrentTokenCommand("rt_1", PROJECT),
                new RecurrentTokenIssuedEvent("rt_1", PROJECT, SESSION, PAYMENT, new FasterPaymentBindingMethod(), at(4)),
                new RecurrentTokenUsedEvent("rt_1", SESSION, PAYMENT, at(5)),
                new RecurrentTokenDisabledEvent("rt_1", at(6)),
                new io.paysession.api.session.ErasePersonalDataCommand(SESSION, "er_1"),
                new io.paysession.api.session.PersonalDataErasedEvent(SESSION, "er_1", at(8)),
                new io.paysession.api.erasure.RequestErasureCommand("er_1", PROJECT, 2, "admin"),
                new io.paysession.api.erasure.ErasureRequestedEvent("er_1", PROJECT, 2, "admin", at(8)),
                new FindRecurrentTokenQuery("rt_1"),
                new PaymentStartedEvent(SESSION, PAYMENT, new PaymentData(new RecurrentMethod("rt_1",
                        RecurrentMethod.Initiator.CLIENT, VISA), AMOUNT, json("{}"), json("{\"recurrent\":\"true\"}"),
                        null, null, null), new PartnerTerms(CaptureMode.AUTO, FeeSchedule.NONE, true), T0),
                new PaymentSucceededEvent(SESSION, PAYMENT, new TransactionInfo(null, null, "A1", "bat_1"), AMOUNT,
                        AMOUNT, at(4)),
                new CreateSessionCommand(SESSION, PROJECT, ApiVersion.V1, null, PAYOUT_DATA),
                new PayoutStartedEvent(SESSION, PAYOUT, PAYOUT_DATA, T0),
                new PayoutStartedEvent(SESSION, PAYOUT, new PayoutData(new PayoutMethod.Iban("global",
                        "DE89370400440532013000", "rent"), AMOUNT, null, json("{\"recipient\":{\"first_name\":\"A\"}}"), null), T0),
                new PayoutStartedEvent(SESSION, PAYOUT, new PayoutData(new PayoutMethod.FasterPayment("79261234567",
                        "100000000069", null), AMOUNT, null, null, json("\"m\"")), T0),
                new PayoutStartedEvent(SESSION, PAYOUT, new PayoutData(new PayoutMethod.FasterPaymentVerification(
                        "79261234567", "100000000069"), null, null, null, null), T0),
                new PayoutReadyToConfirmEvent(SESSION, PAYOUT, at(1)),
                new PayoutConfirmedEvent(SESSION, PAYOUT, PAYOUT_DATA, at(2)),
                new PayoutSucceededEvent(SESSION, PAYOUT, TRANSACTION, at(3)),
                new PayoutFailedEvent(SESSION, PAYOUT, DECLINE, DECLINE, at(3)),
                new PayoutOutcomeUnknownEvent(SESSION, PAYOUT, DECLINE, 0, at(3)),
                new PayoutOutcomeQueryRequestedEvent(SESSION, PAYOUT, PAYOUT_DATA, 1, at(4)),
                new InitPayoutCommand(SESSION, PAYOUT, PROJECT, ApiVersion.V2, PAYOUT_DATA),
                new StartPayoutCommand(SESSION, PAYOUT, PROJECT, PAYOUT_DATA),
                new MarkPayoutReadyToConfirmCommand(SESSION, PAYOUT),
                new RefusePayoutCommand(SESSION, PAYOUT, DECLINE),
                new RecordPayoutOutcomeCommand(SESSION, PAYOUT, new AuthorizationOutcome.Approved(TRANSACTION)),
                new PaymentActionRequiredEvent(SESSION, PAYMENT, new CustomerInteraction.Redirect(
                        "https://pay.example/i/1?a=b", "https://pay.example/i/1", "GET", Map.of("a", "b"), Map.of()), at(5)),
                new PaymentActionRequiredEvent(SESSION, PAYMENT, new CustomerInteraction.InformQr("https://pay.example/q"), at(5)),
                new PaymentOutcomeUnknownEvent(SESSION, PAYMENT, ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "late"), 2, at(5)),
                new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, RAIL_ORDER, 3, at(6)),
                new PaymentAuthorizedEvent(SESSION, PAYMENT, TRANSACTION, at(5)),
                new PaymentCaptureRequestedEvent(SESSION, PAYMENT, RAIL_ORDER, Money.of(700, "eur"), at(6)),
                new PaymentHoldReleasedEvent(SESSION, PAYMENT, RAIL_ORDER, at(6)),
                new RefundRequestedEvent(SESSION, PAYMENT, RefundId.of("rf_9"), RAIL_ORDER, Money.of(300, "eur"),
                        json("{\"reason\":\"damaged\"}"), at(7)),
                new RefundAcceptedEvent(SESSION, PAYMENT, RefundId.of("rf_9"), at(8)),
                new RefundDeclinedEvent(SESSION, PAYMENT, RefundId.of("rf_9"), DECLINE, at(8)),
                new CaptureSessionCommand(SESSION, PROJECT, Money.of(700, "eur")),
                new CaptureSessionCommand(SESSION, PROJECT, null),
                new RefundSessionCommand(SESSION, RefundId.of("rf_9"), PROJECT, null, json("\"r\"")),
                new RecordPaymentCaptureCommand(SESSION, PAYMENT, new TransactionInfo(null, null, "A123")),
                new RecordRefundOutcomeCommand(SESSION, RefundId.of("rf_9"), false, DECLINE),
                new PaymentCaptureOutcomeUnknownEvent(SESSION, PAYMENT, ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT,
                        "no answer"), 0, at(7)),
                new PaymentCaptureQueryRequestedEvent(SESSION, PAYMENT, RAIL_ORDER, Money.of(700, "eur"), 1, at(8)),
                new RefundOutcomeUnknownEvent(SESSION, PAYMENT, RefundId.of("rf_9"), ErrorDetails.of(
                        ErrorCode.PROVIDER_TIMEOUT, "no answer"), 0, at(8)),
                new RefundOutcomeQueryRequestedEvent(SESSION, PAYMENT, RefundId.of("rf_9"), RAIL_ORDER,
                        Money.of(300, "eur"), 1, at(9)),
                new RecordCaptureOutcomeUnknownCommand(SESSION, PAYMENT, ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT,
                        "no answer")),
                new RecordRefundOutcomeUnknownCommand(SESSION, RefundId.of("rf_9"), ErrorDetails.of(
                        ErrorCode.PROVIDER_TIMEOUT, "no answer")),
                new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, new AuthorizationOutcome.Held(TRANSACTION)),
                new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, new AuthorizationOutcome.Unknown(DECLINE)),
                new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, new AuthorizationOutcome.PayerActionRequired(
                        new CustomerInteraction.InformQr("https://pay.example/q"))),
                new PaymentStartedEvent(SESSION, PAYMENT, new PaymentData(new WalletMethod(), AMOUNT, json("{}"), null,
                        null, null, null), TERMS, T0),
                new PaymentStartedEvent(SESSION, PAYMENT, new PaymentData(new BankAppMethod(), AMOUNT, json("{}"), null,
                        null, null, null), TERMS, T0),
                new PaymentStartedEvent(SESSION, PAYMENT, new PaymentData(new QrAppMethod("79261234567", "mobile_web"),
                        AMOUNT, json("{}"), null, null, null, null), TERMS, T0),
                new PaymentStartedEvent(SESSION, PAYMENT, new PaymentData(new FasterPaymentMethod(null), AMOUNT,
                        json("{}"), null, null, null, null), TERMS, T0));
    }

    private static final PayoutId PAYOUT = PayoutId.of("po_3");
    private static final PayoutData PAYOUT_DATA = new PayoutData(new PayoutMethod.Card("tokenized_card", "card_9",
            "visa", "424242", "4242"), AMOUNT, json("{\"reference\":\"r\"}"),
            json("{\"recipient\":{\"full_name\":\"John Doe\"}}"), null);
    private static final RailOrder RAIL_ORDER = new RailOrder(VISA, AMOUNT, CaptureMode.DELAYED, "https://shop.example/back");

    static Stream<Object> cardEvents() {
        return messages().stream().filter(m -> m instanceof PaymentStartedEvent started
                && started.payment().method() instanceof CardMethod || m instanceof PaymentConfirmedEvent
                || m instanceof SessionCreatedEvent created && created.paymentDraft() != null
                && created.paymentDraft().method() instanceof CardMethod);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void everyMessageReadsBackEqualToTheOriginal(Object message) throws IOException {
        String stored = JSON.writeValueAsString(message);
        assertThat(JSON.readValue(stored, message.getClass())).isEqualTo(message);
    }

    @Test
    void everyMessageClassHasASample() throws Exception {
        Set<Class<?>> sampled = messages().stream().map(Object::getClass).collect(Collectors.toSet());
        assertThat(messageClasses()).contains(SessionCreatedEvent.class, StartPaymentCommand.class, FindPartnerQuery.class);
        assertThat(sampled).containsAll(messageClasses());
    }

    @Test
    void everyEventClassCarriesARevision() throws Exception {
        List<Class<?>> events = messageClasses().stream().filter(c -> c.getSimpleName().endsWith("Event")).toList();
        assertThat(events).hasSizeGreaterThanOrEqualTo(9).allSatisfy(event ->
                assertThat(event.getAnnotation(Revision.class)).as(event.getName()).isNotNull()
                        .extracting(Revision::value).asString().isNotBlank());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cardEvents")
    void storedCardEventHoldsNoCardNumberAndOnlyTheVaultView(Object event) throws IOException {
        String stored = JSON.writeValueAsString(event);
        assertThat(stored).doesNotContainPattern("\\d{13,19}");
        List<JsonNode> cards = JSON.readTree(stored).findParents("vaultToken");
        assertThat(cards).isNotEmpty().allSatisfy(card -> {
            assertThat(card.fieldNames()).toIterable().containsExactlyInAnyOrder("type", "vaultToken", "brand", "bin", "last4");
            assertThat(card.get("type").asText()).isEqualTo("card");
            assertThat(card.get("last4").asText()).isEqualTo("4242");
        });
    }

    @Test
    void storedJsonCarriesWireErrorCodesAndPlainStringIds() throws IOException {
        PaymentFailedEvent failed = new PaymentFailedEvent(SESSION, PAYMENT, DECLINE,
                ErrorDetails.of(ErrorCode.THREE_DS_ERROR, "3-D Secure failed"), at(4));
        JsonNode stored = JSON.readTree(JSON.writeValueAsString(failed));
        assertThat(stored.at("/error/code").textValue()).isEqualTo("declined_by_issuer_bank");
        assertThat(stored.at("/sessionError/code").textValue()).isEqualTo("3DS_error");
        assertThat(stored.get("sessionId").textValue()).isEqualTo("ps_1");
        assertThat(stored.get("paymentId").textValue()).isEqualTo("pm_42");
        assertThat(stored.get("occurredAt").textValue()).isEqualTo("2026-11-22T10:15:34.123456Z");

        JsonNode confirmed = JSON.readTree(JSON.writeValueAsString(successfulPayment(ApiVersion.V1).get(3)));
        assertThat(confirmed.at("/order/method/type").textValue()).isEqualTo("card");
        assertThat(confirmed.at("/order/amount/minorUnits").longValue()).isEqualTo(10_000);

        JsonNode partner = JSON.readTree(JSON.writeValueAsString(new PartnerRegisteredEvent(PartnerId.of(PROJECT), SETTINGS, T0)));
        assertThat(partner.get("partnerId").textValue()).isEqualTo("shop-1");
        assertThat(partner.at("/settings/captureMode").textValue()).isEqualTo("delayed");
    }

    /** Events stored before issue 18 lack the fields it added: they read as the defaults of then. */
    @Test
    void eventsStoredBeforeTheirNewFieldsReadAsBefore() throws IOException {
        PayoutStartedEvent before = new PayoutStartedEvent(SESSION, PAYOUT, PAYOUT_DATA, T0);
        ObjectNode stored = (ObjectNode) JSON.readTree(JSON.writeValueAsString(before));
        stored.remove("fromBalance");
        assertThat(JSON.treeToValue(stored, PayoutStartedEvent.class)).isEqualTo(before);
        ObjectNode partner = (ObjectNode) JSON.readTree(JSON.writeValueAsString(
                new PartnerRegisteredEvent(PartnerId.of(PROJECT), SETTINGS, T0)));
        ((ObjectNode) partner.get("settings")).remove("payoutFromBalance");
        assertThat(JSON.treeToValue(partner, PartnerRegisteredEvent.class).settings().payoutFromBalance()).isFalse();
        assertThat(JSON.readValue(JSON.writeValueAsString(new PayoutStartedEvent(SESSION, PAYOUT, PAYOUT_DATA, T0,
                true)), PayoutStartedEvent.class).fromBalance()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"good\"", "{\"merchant\":\"m-1\",\"submerchant\":{\"url\":\"https://shop.example\"}}", "[1,\"two\"]"})
    void freeFormPartnerDataSurvivesStorage(String metadata) throws IOException {
        PaymentStartedEvent event = started(PAYMENT, json(metadata), at(1));
        PaymentStartedEvent back = JSON.readValue(JSON.writeValueAsString(event), PaymentStartedEvent.class);
        assertThat(back.payment().metadata()).isEqualTo(json(metadata));
        assertThat(back.payment().customer())
                .isEqualTo(json("{\"reference\":\"lucky\",\"contacts\":[{\"email\":\"lucky@example.com\"}]}"));
        assertThat(back.payment().items()).isEqualTo(event.payment().items());
    }

    /** Concrete *Event, *Command and *Query classes compiled into the message packages. */
    private static List<Class<?>> messageClasses() throws Exception {
        Path classes = Path.of(SessionCreatedEvent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> found = new ArrayList<>();
        for (String pkg : MESSAGE_PACKAGES) {
            try (Stream<Path> files = Files.list(classes.resolve(pkg.replace('.', '/')))) {
                for (Path file : files.toList()) {
                    String name = file.getFileName().toString();
                    if (name.matches("[A-Za-z0-9]+(Event|Command|Query)\\.class")) {
                        Class<?> type = Class.forName(pkg + "." + name.substring(0, name.length() - ".class".length()));
                        if (!type.isInterface()) {
                            found.add(type);
                        }
                    }
                }
            }
        }
        return found;
    }
}
