package io.paysession.api.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;

import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** One realistic card payment of 100.00 EUR in session ps_1, at 2.5 % + 0.30 fees; events one second apart. */
public final class SessionFixtures {

    public static final SessionId SESSION = SessionId.of("ps_1");
    public static final PaymentId PAYMENT = PaymentId.of("pm_42");
    public static final PaymentId PAYMENT_2 = PaymentId.of("pm_7");
    public static final String PROJECT = "shop-1";
    public static final Instant T0 = Instant.parse("2026-11-22T10:15:30.123456Z");
    public static final CardMethod VISA = new CardMethod("vt_7f3c9a1e", "visa", "424242", "4242");
    public static final Money AMOUNT = Money.of(10_000, "EUR");
    public static final PartnerTerms TERMS = new PartnerTerms(CaptureMode.AUTO, new FeeSchedule(250, 30));
    public static final Money FEE = Money.of(280, "eur");
    public static final TransactionInfo TRANSACTION = TransactionInfo.card("123456789012", "A1B2C3");
    public static final ErrorDetails DECLINE = ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "Declined by the issuer bank");
    public static final ErrorDetails SESSION_DECLINE = ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "Payment pm_42 failed");

    private static final ObjectMapper JSON = new ObjectMapper();

    private SessionFixtures() {
    }

    public static Instant at(int second) {
        return T0.plusSeconds(second);
    }

    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static PaymentData cardPayment(JsonNode metadata) {
        return new PaymentData(VISA, AMOUNT,
                json("{\"reference\":\"lucky\",\"contacts\":[{\"email\":\"lucky@example.com\"}]}"),
                json("{\"recurrent\":false}"), json("{\"sender\":{\"ipv4\":\"203.0.113.7\"}}"), metadata,
                json("{\"sku\":\"tea-1\",\"quantity\":2}"));
    }

    public static SessionCreatedEvent created(ApiVersion version) {
        return new SessionCreatedEvent(SESSION, PROJECT, version, null, null, T0);
    }

    public static PaymentStartedEvent started(PaymentId payment, JsonNode metadata, Instant at) {
        return new PaymentStartedEvent(SESSION, payment, cardPayment(metadata), TERMS, at);
    }

    /** create, start, ready_to_confirm, confirmed, succeeded: sequence numbers 0..4, at seconds 0..4. */
    public static List<SessionEvent> successfulPayment(ApiVersion version) {
        return List.of(created(version),
                started(PAYMENT, json("\"good\""), at(1)),
                new PaymentReadyToConfirmEvent(SESSION, PAYMENT, at(2)),
                new PaymentConfirmedEvent(SESSION, PAYMENT, new RailOrder(VISA, AMOUNT, CaptureMode.AUTO, null), at(3)),
                new PaymentSucceededEvent(SESSION, PAYMENT, TRANSACTION, AMOUNT, FEE, at(4)));
    }

    /** The successful story with the issuer's decline in place of the success. */
    public static List<SessionEvent> declinedPayment(ApiVersion version) {
        List<SessionEvent> events = new ArrayList<>(successfulPayment(version).subList(0, 4));
        events.add(new PaymentFailedEvent(SESSION, PAYMENT, DECLINE, SESSION_DECLINE, at(4)));
        return events;
    }
}
