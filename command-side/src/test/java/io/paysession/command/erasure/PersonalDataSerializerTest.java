package io.paysession.command.erasure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.session.*;
import io.paysession.api.wire.PaymentJson;
import io.paysession.command.TestDatabase;
import io.paysession.command.vault.VaultKeyRing;
import org.axonframework.serialization.AnnotationRevisionResolver;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The encrypting event serializer of the erasure prototype, on PostgreSQL with its key tables: what the event store
 * would hold, what a fold would read with the key and after the customer's erasure, and events stored before.
 */
class PersonalDataSerializerTest {

    private static final DataSource DATA_SOURCE = TestDatabase.dataSource();
    private static final JdbcTemplate JDBC = new JdbcTemplate(DATA_SOURCE);
    private static final TransactionTemplate TRANSACTION = new TransactionTemplate(new DataSourceTransactionManager(DATA_SOURCE));
    private static final ObjectMapper JSON = PaymentJson.newObjectMapper();
    private static final AtomicLong SESSIONS = new AtomicLong(System.nanoTime() % 1_000_000_000L);
    private static final VaultKeyRing VAULT = new VaultKeyRing("vault-1", Map.of("vault-1",
            new SecretKeySpec(new byte[32], "AES")));
    private static final Instant T0 = Instant.parse("2026-11-27T10:15:30.123456Z");
    private static final String PROJECT = "shop-1";

    private final Serializer plain = JacksonSerializer.builder().objectMapper(PaymentJson.newObjectMapper())
            .revisionResolver(new AnnotationRevisionResolver()).build();
    private final JdbcSessionKeys keys = new JdbcSessionKeys(JDBC, VAULT, Clock.systemUTC(), Duration.ofMinutes(5));
    private final PersonalDataSerializer serializer = new PersonalDataSerializer(plain, PaymentJson.newObjectMapper(), keys);

    private final SessionId session = SessionId.of(SESSIONS.incrementAndGet());
    private final String reference = "cust-" + session.value();

    /** The values of a customer that the store must never hold in clear. */
    private final List<String> personal = List.of(reference, "jane.roe@example.com", "+79261234567", "Jane", "Roe",
            "203.0.113.7", "gift for mum", "Blue teapot", "https://shop.example/back?email=jane.roe%40example.com",
            "iPhone Safari 17", "DE89370400440532013000", "rent for flat 4");

    @BeforeAll
    static void tables() throws Exception {
        if (JDBC.queryForObject("select to_regclass('pii_session_key') is not null", Boolean.class)) {
            return; // the command side's migrations ran on this database already
        }
        JDBC.execute(new ClassPathResource("db/migration/command/V202611272200__command_pii_session_keys.sql")
                .getContentAsString(StandardCharsets.UTF_8));
    }

    private SessionCreatedEvent created() {
        return new SessionCreatedEvent(session, PROJECT, ApiVersion.V2, PaymentData.EMPTY, null, T0);
    }

    private PaymentStartedEvent started() {
        PaymentData data = new PaymentData(new QrAppMethod("+79261234567", "mobile_web"), Money.of(10_000, "rub"),
                json("{\"reference\":\"" + reference + "\",\"contacts\":[{\"email\":\"jane.roe@example.com\"},"
                        + "{\"phone\":\"+79261234567\"}]}"),
                json("{\"recurrent\":true,\"description\":\"gift for mum\",\"return_url\":"
                        + "\"https://shop.example/back?email=jane.roe%40example.com\",\"platform_details\":{\"type\":\"mobile\","
                        + "\"os\":\"iPhone Safari 17\"}}"),
                json("{\"recipient\":{\"first_name\":\"Jane\",\"last_name\":\"Roe\"},\"sender\":{\"ipv4\":\"203.0.113.7\"}}"),
                json("{\"order\":\"o-7\",\"age\":42,\"vip\":true}"),
                json("[{\"name\":\"Blue teapot\",\"quantity\":2}]"));
        return new PaymentStartedEvent(session, PaymentId.of("pm_42"), data,
                new PartnerTerms(CaptureMode.AUTO, new FeeSchedule(250, 30)), T0.plusSeconds(1));
    }

    private PayoutStartedEvent payout() {
        return new PayoutStartedEvent(session, PayoutId.of("po_3"), new PayoutData(new PayoutMethod.Iban("global",
                "DE89370400440532013000", "rent for flat 4"), Money.of(5_000, "eur"),
                json("{\"reference\":\"" + reference + "\"}"),
                json("{\"recipient\":{\"first_name\":\"Jane\",\"last_name\":\"Roe\"}}"), null), T0.plusSeconds(2));
    }

    private PaymentSucceededEvent succeeded() {
        return new PaymentSucceededEvent(session, PaymentId.of("pm_42"), TransactionInfo.card("123456789012", "A1B2C3"),
                Money.of(10_000, "rub"), Money.of(280, "rub"), T0.plusSeconds(3));
    }

    /** As the event store does it: in the command's transaction. */
    private List<SerializedObject<byte[]>> store(Object... events) {
        return TRANSACTION.execute(status -> java.util.Arrays.stream(events)
                .map(event -> serializer.serialize(event, byte[].class)).toList());
    }

    private static String text(SerializedObject<byte[]> stored) {
        return new String(stored.getData(), StandardCharsets.UTF_8);
    }

    @Test
    void eventsReadBackUnchangedWhileTheKeyExistsAndTheStoreHoldsNoPersonalValueInClear() {
        List<Object> events = List.of(created(), started(), payout(), succeeded());
        List<SerializedObject<byte[]>> stored = store(events.toArray());

        for (int i = 0; i < events.size(); i++) {
            assertThat((Object) serializer.deserialize(stored.get(i))).isEqualTo(events.get(i));
            // a node that has not cached the key reads it from the table
            PersonalDataSerializer otherNode = new PersonalDataSerializer(plain, PaymentJson.newObjectMapper(),
                    new JdbcSessionKeys(JDBC, VAULT, Clock.systemUTC(), Duration.ofMinutes(5)));
            assertThat((Object) otherNode.deserialize(stored.get(i))).isEqualTo(events.get(i));
        }
        String all = stored.stream().map(PersonalDataSerializerTest::text).reduce("", String::concat);
        assertThat(all).doesNotContain(personal).contains("pii:v1:");
        // what stays readable: ids, amounts, times, the method's type, the flags the engine acts on
        String payment = text(stored.get(1));
        assertThat(payment).contains("\"sessionId\":\"" + session.value() + "\"", "\"paymentId\":\"pm_42\"",
                "\"minorUnits\":10000", "\"currency\":\"RUB\"", "\"type\":\"qr_app_pay\"", "\"recurrent\":true",
                "\"occurredAt\":\"2026-11-27T10:15:31.123456Z\"", "\"channel\":\"mobile_web\"", "\"reference\":\"pii:v1:");
        assertThat(text(stored.get(3))).as("nothing personal in it: written as before")
                .isEqualTo(text(plain.serialize(succeeded(), byte[].class)));
        assertThat(JDBC.queryForList("select key_id from pii_session_key where session_id = ?", String.class,
                session.value())).as("one key for the session").hasSize(1);
    }

    @Test
    void afterTheCustomersErasureEveryPersonalFieldReadsAsErasedAndNothingElseChanges() throws Exception {
        List<SerializedObject<byte[]>> stored = store(created(), started(), payout());
        PersonalDataSerializer otherNode = new PersonalDataSerializer(plain, PaymentJson.newObjectMapper(),
                new JdbcSessionKeys(JDBC, VAULT, Clock.systemUTC(), Duration.ofMillis(200)));
        otherNode.deserialize(stored.get(1));   // caches the key

        assertThat(keys.sessionsOf(PROJECT, reference)).containsExactly(session);
        assertThat(keys.sessionsOf("other-shop", reference)).isEmpty();
        assertThat((Integer) TRANSACTION.execute(status -> keys.erase(keys.sessionsOf(PROJECT, reference)))).isEqualTo(1);

        PaymentStartedEvent payment = serializer.deserialize(stored.get(1));
        PaymentData data = payment.payment();
        JsonNode erased = JSON.valueToTree(data);
        assertThat(((QrAppMethod) data.method()).phone()).isEqualTo("[erased]");
        assertThat(data.customer().toString()).isEqualTo(
                "{\"reference\":\"[erased]\",\"contacts\":[{\"email\":\"[erased]\"},{\"phone\":\"[erased]\"}]}");
        assertThat(data.participantDetails().toString()).isEqualTo("{\"recipient\":{\"first_name\":\"[erased]\","
                + "\"last_name\":\"[erased]\"},\"sender\":{\"ipv4\":\"[erased]\"}}");
        assertThat(data.metadata().toString()).isEqualTo("{\"order\":\"[erased]\",\"age\":\"[erased]\",\"vip\":\"[erased]\"}");
        assertThat(data.items().toString()).isEqualTo("[{\"name\":\"[erased]\",\"quantity\":\"[erased]\"}]");
        assertThat(data.paymentOptions().toString()).isEqualTo("{\"recurrent\":true,\"description\":\"[erased]\","
                + "\"return_url\":\"[erased]\",\"platform_details\":{\"type\":\"mobile\",\"os\":\"[erased]\"}}");
        assertThat(data.recurrentRequested()).as("the engine still sees what it acts on").isTrue();
        assertThat(erased.toString()).doesNotContain(personal);
        // amounts, ids, times, terms unchanged
        PaymentStartedEvent original = started();
        assertThat(payment.sessionId()).isEqualTo(original.sessionId());
        assertThat(payment.paymentId()).isEqualTo(original.paymentId());
        assertThat(data.amount()).isEqualTo(Money.of(10_000, "rub"));
        assertThat(payment.terms()).isEqualTo(original.terms());
        assertThat(payment.occurredAt()).isEqualTo(original.occurredAt());
        assertThat(((QrAppMethod) data.method()).channel()).isEqualTo("mobile_web");

        PayoutStartedEvent payout = serializer.deserialize(stored.get(2));
        assertThat(payout.payout().method()).isEqualTo(new PayoutMethod.Iban("global", "[erased]", "[erased]"));
        assertThat(payout.payout().amount()).isEqualTo(Money.of(5_000, "eur"));
        assertThat((Object) serializer.deserialize(stored.get(0))).isEqualTo(created());

        // the node that had cached the key shows the erasure once its cache time has passed
        Thread.sleep(400);
        PaymentStartedEvent elsewhere = otherNode.deserialize(stored.get(1));
        assertThat(JSON.valueToTree(elsewhere).toString()).doesNotContain(personal).contains("[erased]");
        assertThat(JDBC.queryForObject("select count(*) from pii_session_key where session_id = ? and sealed_key is null "
                + "and erased_at is not null", Integer.class, session.value())).isEqualTo(1);
    }

    @Test
    void newPersonalDataOfAnErasedSessionGoesUnderANewKeyAndCopiedPlaceholdersStayPlaceholders() {
        List<SerializedObject<byte[]>> stored = store(created(), started());
        TRANSACTION.execute(status -> keys.erase(List.of(session)));
        PaymentStartedEvent erased = serializer.deserialize(stored.get(1));

        RefundRequestedEvent refund = new RefundRequestedEvent(session, PaymentId.of("pm_42"), RefundId.of("rf_9"),
                new RailOrder(erased.payment().method(), Money.of(300, "rub"), CaptureMode.AUTO,
                        erased.payment().returnUrl().orElseThrow()), Money.of(300, "rub"),
                json("{\"reason\":\"broken lid, call Jane\"}"), T0.plusSeconds(9));
        SerializedObject<byte[]> refundStored = store(refund).get(0);
        assertThat(text(refundStored)).doesNotContain("broken lid").contains("\"phone\":\"[erased]\"",
                "\"returnUrl\":\"[erased]\"");
        assertThat((Object) serializer.deserialize(refundStored)).isEqualTo(refund);
        assertThat(JDBC.queryForList("select erased_at is null from pii_session_key where session_id = ? order by created_at",
                Boolean.class, session.value())).containsExactly(false, true);
    }

    @Test
    void eventsStoredInClearBeforeEncryptionStillReadBack() {
        for (Object event : List.of(created(), started(), payout(), succeeded())) {
            SerializedObject<byte[]> old = plain.serialize(event, byte[].class);
            assertThat((Object) serializer.deserialize(old)).isEqualTo(event);
        }
    }

    @Test
    void aMissingVaultKeyIsAnErrorNotAnErasure() {
        SerializedObject<byte[]> stored = store(created(), started()).get(1);
        VaultKeyRing otherVault = new VaultKeyRing("vault-2", Map.of("vault-2", new SecretKeySpec(new byte[32], "AES")));
        PersonalDataSerializer misconfigured = new PersonalDataSerializer(plain, PaymentJson.newObjectMapper(),
                new JdbcSessionKeys(JDBC, otherVault, Clock.systemUTC(), Duration.ofMinutes(5)));
        assertThatThrownBy(() -> misconfigured.deserialize(stored)).hasMessageContaining("vault key vault-1");
    }

    @Test
    void aKeyCreatedInATransactionThatRolledBackIsNotUsedAgain() {
        try {
            TRANSACTION.executeWithoutResult(status -> {
                serializer.serialize(created(), byte[].class);
                serializer.serialize(started(), byte[].class);
                status.setRollbackOnly();
            });
        } finally {
            assertThat(JDBC.queryForObject("select count(*) from pii_session_key where session_id = ?", Integer.class,
                    session.value())).isZero();
        }
        SerializedObject<byte[]> stored = store(created(), started()).get(1);
        PersonalDataSerializer otherNode = new PersonalDataSerializer(plain, PaymentJson.newObjectMapper(),
                new JdbcSessionKeys(JDBC, VAULT, Clock.systemUTC(), Duration.ofMinutes(5)));
        assertThat((Object) otherNode.deserialize(stored)).as("encrypted under the committed key").isEqualTo(started());
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
