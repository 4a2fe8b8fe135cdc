package io.paysession.api.session.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.paysession.api.erasure.PersonalData;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.PersonalDataErasedEvent;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.RailOrder;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundRequestedEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.TransactionInfo;
import io.paysession.api.wire.PaymentJson;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.paysession.api.session.SessionFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live fold of {@link PersonalDataErasedEvent} (which erases the view's own copy) must give exactly what a replay
 * gives, folding the same events as they read back once their key is erased (every personal leaf the placeholder).
 */
class ErasedFoldTest {

    private static final ObjectMapper JSON = PaymentJson.newObjectMapper();

    @Test
    void erasingTheViewAgreesWithFoldingTheErasedEvents() throws Exception {
        PaymentData data = new PaymentData(new QrAppMethod("+79001234567", "mobile_web"), AMOUNT,
                json("{\"reference\":\"cust-17\",\"contacts\":[{\"email\":\"jane@example.org\"}],\"age\":41}"),
                json("{\"description\":\"Order 7 for Jane\",\"recurrent\":true,\"platform_details\":{\"os\":\"iOS\",\"type\":\"mobile\"}}"),
                json("{\"recipient\":{\"full_name\":\"Jane Roe\"}}"), json("{\"note\":\"gift for Jane\"}"),
                json("[{\"name\":\"Book for Jane\",\"price\":1000}]"));
        RailOrder order = new RailOrder(data.method(), AMOUNT, CaptureMode.AUTO, "https://shop.example/back?u=jane");
        List<SessionEvent> events = List.of(created(ApiVersion.V1),
                new PaymentStartedEvent(SESSION, PAYMENT, data, TERMS, at(1)),
                new PaymentReadyToConfirmEvent(SESSION, PAYMENT, at(2)),
                new PaymentConfirmedEvent(SESSION, PAYMENT, order, at(3)),
                new PaymentSucceededEvent(SESSION, PAYMENT, new TransactionInfo("rrn1", "A1", null, "bat_jane"), AMOUNT,
                        FEE, at(4)),
                new RefundRequestedEvent(SESSION, PAYMENT, RefundId.of("rf_1"), order, AMOUNT,
                        json("{\"why\":\"Jane changed her mind\"}"), at(5)),
                new PersonalDataErasedEvent(SESSION, "er_1", at(6)));

        SessionView live = SessionViewFold.fold(events);
        List<SessionEvent> erased = new ArrayList<>();
        for (SessionEvent event : events) {
            JsonNode tree = JSON.valueToTree(event);
            PersonalData.rewriteLeaves(tree, event.getClass(), leaf -> TextNode.valueOf(PersonalData.PLACEHOLDER));
            erased.add(JSON.treeToValue(tree, event.getClass()));
        }
        SessionView replayed = SessionViewFold.fold(erased);

        assertThat(JSON.writeValueAsString(live)).isEqualTo(JSON.writeValueAsString(replayed));
        String shown = JSON.writeValueAsString(live);
        for (String value : List.of("cust-17", "jane", "Jane", "+79001234567", "iOS", "bat_jane")) {
            assertThat(shown).as(value).doesNotContain(value);
        }
        assertThat(shown).contains("[erased]", "\"recurrent\":true", "\"type\":\"mobile\"", "rrn1", "10000");
        SessionView before = SessionViewFold.fold(events.subList(0, events.size() - 1));
        assertThat(JSON.writeValueAsString(before)).contains("jane@example.org", "+79001234567", "bat_jane");
        assertThat(live.version()).isEqualTo(6);
        assertThat(live.status()).isEqualTo(before.status());
    }
}
