package io.paysession.gateway.preload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.RequestMetadataKeys;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.recurrent.RecurrentTokenIssuedEvent;
import io.paysession.api.recurrent.RecurrentTokenUsedEvent;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.PayoutConfirmedEvent;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutFailedEvent;
import io.paysession.api.session.PayoutId;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.PayoutReadyToConfirmEvent;
import io.paysession.api.session.PayoutStartedEvent;
import io.paysession.api.session.PayoutSucceededEvent;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.RecurrentTokenGrantedEvent;
import io.paysession.api.session.RefundAcceptedEvent;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.TransactionInfo;
import io.paysession.command.process.RailCallJournal;
import io.paysession.command.vault.CardNumber;
import io.paysession.command.vault.CardVault;
import io.paysession.command.vault.SealedCard;

import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * The finished sessions a preload writes, of the kinds the service produces, with the events the {@code Session}
 * and {@code RecurrentToken} aggregates apply for them (the same records, field for field: see the event tables of
 * docs/architecture.md) and the metadata Axon copies onto them: a partner's request gives its events
 * {@code traceId} and {@code correlationId} (the command's id), {@code project}, {@code endpoint} and
 * {@code requestId}; a process's command gives {@code traceId} and {@code correlationId} only. The mix repeats
 * every 20 sessions ({@link Kind#of}); proportions in docs/benchmark.md.
 */
final class SessionMix {

    /** What a preloaded session is; the mix repeats every 20 sessions. */
    enum Kind {
        CARD_PAID, CARD_HELD_THEN_CAPTURED, CARD_PAID_THEN_PARTLY_REFUNDED, CARD_DECLINED,
        CANCELLED_BEFORE_CONFIRMATION, PAYOUT_PAID, PAYOUT_DECLINED, CARD_PAID_GRANTING_RECURRENT_TOKEN,
        RECURRENT_MERCHANT_INITIATED_CHARGE;

        static Kind of(long index) {
            int slot = (int) (index % 20);
            if (slot < 8) {
                return CARD_PAID;
            }
            return switch (slot) {
                case 8, 9 -> CARD_HELD_THEN_CAPTURED;
                case 10, 11 -> CARD_PAID_THEN_PARTLY_REFUNDED;
                case 12, 13 -> CARD_DECLINED;
                case 14, 15 -> CANCELLED_BEFORE_CONFIRMATION;
                case 16 -> PAYOUT_PAID;
                case 17 -> PAYOUT_DECLINED;
                case 18 -> CARD_PAID_GRANTING_RECURRENT_TOKEN;
                default -> RECURRENT_MERCHANT_INITIATED_CHARGE;
            };
        }
    }

    /** One event as an aggregate applied it, with the metadata of the message that caused it. */
    record Step(String aggregateType, String aggregateId, Object payload, Map<String, Object> metaData, Instant at) {
    }

    /** A money-moving call the payment process journals before it calls the rail. */
    record RailCall(RailCallJournal.Kind kind, String operationId, Instant at) {
    }

    /** A card the request brought, stored with the command that started the payment. */
    record Card(SealedCard sealed, Instant storedAt) {
    }

    record Planned(Kind kind, SessionId sessionId, String project, List<Step> steps, List<Card> cards,
                   List<RailCall> railCalls) {
    }

    /** A preload partner: its project and terms (one of four captures later: the held payments are its). */
    record Partner(String project, PartnerTerms terms) {
    }

    static final String SESSION = "Session";
    static final String RECURRENT_TOKEN = "RecurrentToken";
    static final String PAID_CARD = "4242424242424242";
    static final String DECLINED_CARD = "4000000000000002";
    static final String PAYOUT_IBAN = "GB82WEST12345698765432";
    static final String MISSING_ACCOUNT = "GB33BUKB20201555555555";
    static final FeeSchedule FEES = new FeeSchedule(250, 30);

    private final List<Partner> partners;
    private final CardVault vault;
    private final SplittableRandom random;
    private final Ids ids;
    private String grantedToken;
    private Partner grantedTo;
    private PaymentMethod grantedSource;

    /** The next number of each id sequence. */
    static final class Ids {
        long session;
        long payment;
        long payout;
        long refund;

        Ids(long session, long payment, long payout, long refund) {
            this.session = session;
            this.payment = payment;
            this.payout = payout;
            this.refund = refund;
        }
    }

    SessionMix(List<Partner> partners, CardVault vault, long seed, Ids ids) {
        this.partners = partners;
        this.vault = vault;
        this.random = new SplittableRandom(seed);
        this.ids = ids;
    }

    /** The preload's partners: {@code count} of them, the last one capturing later (delayed capture). */
    static List<Partner> partners(String prefix, int count) {
        List<Partner> partners = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            CaptureMode mode = i == count && count > 1 ? CaptureMode.DELAYED : CaptureMode.AUTO;
            partners.add(new Partner(prefix + "-" + i, new PartnerTerms(mode, FEES, false)));
        }
        return partners;
    }

    Planned next(long index, Instant start) {
        Kind kind = Kind.of(index);
        Partner partner = partnerFor(kind, index);
        Session session = new Session(kind, partner, SessionId.of(ids.session++), start);
        switch (kind) {
            case CARD_PAID -> session.cardPayment(PAID_CARD, null).ready().confirmed().succeeded();
            case CARD_HELD_THEN_CAPTURED -> session.cardPayment(PAID_CARD, null).ready().confirmed().held().captured();
            case CARD_PAID_THEN_PARTLY_REFUNDED -> session.cardPayment(PAID_CARD, null).ready().confirmed().succeeded()
                    .partlyRefunded();
            case CARD_DECLINED -> session.cardPayment(DECLINED_CARD, null).ready().confirmed().declined();
            case CANCELLED_BEFORE_CONFIRMATION -> session.cardPayment(PAID_CARD, null).ready().cancelled();
            case PAYOUT_PAID -> session.payout(PAYOUT_IBAN).payoutReady().payoutConfirmed().payoutSucceeded();
            case PAYOUT_DECLINED -> session.payout(MISSING_ACCOUNT).payoutReady().payoutConfirmed().payoutDeclined();
            case CARD_PAID_GRANTING_RECURRENT_TOKEN -> session.cardPayment(PAID_CARD, recurrentOption()).ready()
                    .confirmed().succeeded();
            case RECURRENT_MERCHANT_INITIATED_CHARGE -> session.merchantInitiatedCharge().ready().confirmed().succeeded();
        }
        return new Planned(kind, session.id, partner.project(), session.steps, session.cards, session.railCalls);
    }

    private Partner partnerFor(Kind kind, long index) {
        if (kind == Kind.CARD_HELD_THEN_CAPTURED) {
            return partners.get(partners.size() - 1);
        }
        if (kind == Kind.RECURRENT_MERCHANT_INITIATED_CHARGE && grantedTo != null) {
            return grantedTo;
        }
        int auto = partners.size() > 1 ? partners.size() - 1 : 1;
        return partners.get((int) (index % auto));
    }

    private static JsonNode recurrentOption() {
        return JsonNodeFactory.instance.objectNode().put("recurrent", true);
    }

    private String hex(int bytes) {
        byte[] value = new byte[bytes];
        random.nextBytes(value);
        return HexFormat.of().formatHex(value);
    }

    private String digits(int count) {
        StringBuilder text = new StringBuilder(count);
        for (int i = 0; i < count; i++) {
            text.append((char) ('0' + random.nextInt(10)));
        }
        return text.toString();
    }

    private String authCode() {
        String alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
        StringBuilder code = new StringBuilder(6);
        for (int i = 0; i < 6; i++) {
            code.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return code.toString();
    }

    private UUID uuid() {
        return new UUID(random.nextLong(), random.nextLong());
    }

    /** One session being written, step by step; times advance as the service's would. */
    private final class Session {
        final Kind kind;
        final Partner partner;
        final SessionId id;
        final List<Step> steps = new ArrayList<>();
        final List<Card> cards = new ArrayList<>();
        final List<RailCall> railCalls = new ArrayList<>();
        Instant now;
        PaymentId paymentId;
        PayoutId payoutId;
        PaymentData payment;
        PayoutData payout;
        RailOrder order;
        long customer;

        Session(Kind kind, Partner partner, SessionId id, Instant start) {
            this.kind = kind;
            this.partner = partner;
            this.id = id;
            this.now = start;
            this.customer = random.nextInt(100_000);
        }

        private Instant after(long minMillis, long maxMillis) {
            now = now.plusNanos((minMillis + random.nextLong(maxMillis - minMillis + 1)) * 1_000_000L + random.nextInt(1000) * 1000L);
            return now;
        }

        private Map<String, Object> request(String endpoint) {
            String command = uuid().toString();
            Map<String, Object> metaData = new HashMap<>();
            metaData.put("traceId", command);
            metaData.put("correlationId", command);
            metaData.put(RequestMetadataKeys.PROJECT, partner.project());
            metaData.put(RequestMetadataKeys.ENDPOINT, "POST /api/v1/session/" + endpoint);
            metaData.put(RequestMetadataKeys.REQUEST_ID, "req_" + hex(16));
            return metaData;
        }

        private Map<String, Object> process() {
            String command = uuid().toString();
            Map<String, Object> metaData = new HashMap<>();
            metaData.put("traceId", command);
            metaData.put("correlationId", command);
            return metaData;
        }

        private void session(Object payload, Map<String, Object> metaData) {
            steps.add(new Step(SESSION, id.value(), payload, metaData, now));
        }

        private Money amount() {
            return Money.of(100 + random.nextInt(100_000), "RUB");
        }

        private ObjectNode customer() {
            return JsonNodeFactory.instance.objectNode().put("reference", "preload-customer-" + customer);
        }

        Session cardPayment(String number, JsonNode paymentOptions) {
            Instant cardStored = now;
            after(1, 40);
            SealedCard card = vault.seal(partner.project(), CardNumber.parse(number).orElseThrow(),
                    YearMonth.of(2034, 12), digits(3));
            cards.add(new Card(card, cardStored));
            var vaulted = card.vaulted();
            CardMethod method = new CardMethod(vaulted.token(), vaulted.brand().wireName(), vaulted.bin(), vaulted.last4());
            return started(new PaymentData(method, amount(), customer(), paymentOptions, null, null, null));
        }

        Session merchantInitiatedCharge() {
            if (grantedToken == null) {
                return cardPayment(PAID_CARD, null);
            }
            return started(new PaymentData(new RecurrentMethod(grantedToken, RecurrentMethod.Initiator.MERCHANT,
                    grantedSource), amount(), customer(), null, null, null, null));
        }

        private Session started(PaymentData data) {
            payment = data;
            paymentId = PaymentId.of(ids.payment++);
            Map<String, Object> init = request("init/payment");
            session(new SessionCreatedEvent(id, partner.project(), ApiVersion.V1, PaymentData.EMPTY, PayoutData.EMPTY,
                    now), init);
            session(new PaymentStartedEvent(id, paymentId, data, partner.terms(), now), init);
            if (data.method() instanceof RecurrentMethod recurrent) {
                after(5, 60);
                steps.add(new Step(RECURRENT_TOKEN, recurrent.token(),
                        new RecurrentTokenUsedEvent(recurrent.token(), id, paymentId, now), process(), now));
            }
            return this;
        }

        Session ready() {
            after(50, 400);
            session(new PaymentReadyToConfirmEvent(id, paymentId, now), process());
            return this;
        }

        Session confirmed() {
            after(300, 3000);
            order = payment.railOrder(partner.terms());
            session(new PaymentConfirmedEvent(id, paymentId, order, now), request("confirm"));
            after(5, 50);
            railCalls.add(new RailCall(RailCallJournal.Kind.AUTHORIZE, paymentId.value(), now));
            return this;
        }

        Session succeeded() {
            after(50, 600);
            Map<String, Object> answer = process();
            if (payment.grantsRecurrentToken()) {
                String token = "rt_" + hex(16);
                session(new RecurrentTokenGrantedEvent(id, paymentId, token, partner.project(), order.method(), now),
                        answer);
                grantedToken = token;
                grantedTo = partner;
                grantedSource = order.method();
                Instant granted = now;
                session(paid(TransactionInfo.card(digits(12), authCode()), order.amount()), answer);
                after(5, 60);
                steps.add(new Step(RECURRENT_TOKEN, token, new RecurrentTokenIssuedEvent(token, partner.project(), id,
                        paymentId, order.method(), granted), process(), now));
                return this;
            }
            session(paid(TransactionInfo.card(digits(12), authCode()), order.amount()), answer);
            return this;
        }

        private PaymentSucceededEvent paid(TransactionInfo info, Money amount) {
            Money fee = partner.terms().feeFor(amount);
            return new PaymentSucceededEvent(id, paymentId, info.shownUnder(partner.terms()), amount, fee, now);
        }

        Session held() {
            after(50, 600);
            session(new PaymentAuthorizedEvent(id, paymentId, TransactionInfo.card(digits(12), authCode()), now),
                    process());
            return this;
        }

        Session captured() {
            after(10_000, 600_000);
            session(new PaymentCaptureRequestedEvent(id, paymentId, order, order.amount(), now), request("capture"));
            after(5, 50);
            railCalls.add(new RailCall(RailCallJournal.Kind.CAPTURE, paymentId.value(), now));
            after(50, 600);
            session(paid(new TransactionInfo(null, null, null), order.amount()), process());
            return this;
        }

        Session partlyRefunded() {
            after(60_000, 3_600_000);
            RefundId refund = RefundId.of(ids.refund++);
            Money amount = Money.of(Math.max(1, order.amount().minorUnits() / 2), order.amount().currencyCode());
            session(new RefundRequestedEvent(id, paymentId, refund, order, amount, null, now), request("refund"));
            after(5, 50);
            railCalls.add(new RailCall(RailCallJournal.Kind.REFUND, refund.value(), now));
            after(50, 600);
            session(new RefundAcceptedEvent(id, paymentId, refund, now), process());
            return this;
        }

        Session declined() {
            after(50, 600);
            ErrorDetails reason = ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "The issuer bank declined the payment");
            session(new PaymentFailedEvent(id, paymentId, reason, ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                    "The session was cancelled because its payment failed: " + reason.code().code()), now), process());
            return this;
        }

        Session cancelled() {
            after(1_000, 600_000);
            session(new SessionCancelledEvent(id, ErrorDetails.of(ErrorCode.SESSION_CANCELLED_BY_PARTNER,
                    "The session was cancelled by the partner"), now), request("cancel"));
            return this;
        }

        Session payout(String iban) {
            ObjectNode participant = JsonNodeFactory.instance.objectNode();
            participant.putObject("recipient").put("first_name", "Ivan").put("last_name", "Petrov");
            payout = new PayoutData(new PayoutMethod.Iban("iban", iban, null), amount(), customer(), participant, null);
            payoutId = PayoutId.of(ids.payout++);
            Map<String, Object> init = request("init/payout");
            session(new SessionCreatedEvent(id, partner.project(), ApiVersion.V1, PaymentData.EMPTY, PayoutData.EMPTY,
                    now), init);
            session(new PayoutStartedEvent(id, payoutId, payout, now), init);
            return this;
        }

        Session payoutReady() {
            after(50, 400);
            session(new PayoutReadyToConfirmEvent(id, payoutId, now), process());
            return this;
        }

        Session payoutConfirmed() {
            after(300, 3000);
            session(new PayoutConfirmedEvent(id, payoutId, payout, now), request("confirm"));
            after(5, 50);
            railCalls.add(new RailCall(RailCallJournal.Kind.PAYOUT, payoutId.value(), now));
            return this;
        }

        Session payoutSucceeded() {
            after(50, 600);
            session(new PayoutSucceededEvent(id, payoutId, new TransactionInfo(null, null, null), now), process());
            return this;
        }

        Session payoutDeclined() {
            after(50, 600);
            ErrorDetails reason = ErrorDetails.of(ErrorCode.ACCOUNT_NOT_FOUND, "The recipient's bank has no such account");
            session(new PayoutFailedEvent(id, payoutId, reason, ErrorDetails.of(ErrorCode.SESSION_CANCELLED,
                    "The session was cancelled because its payout failed: " + reason.code().code()), now), process());
            return this;
        }
    }

    /** How long after its start a preloaded session may still write (a capture, a refund): for the time span. */
    static final Duration LONGEST_SESSION = Duration.ofHours(2);
}
