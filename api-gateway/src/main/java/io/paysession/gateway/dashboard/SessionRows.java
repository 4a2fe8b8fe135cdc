package io.paysession.gateway.dashboard;

import io.paysession.api.session.view.PaymentView;
import io.paysession.api.session.view.PayoutView;
import io.paysession.api.session.view.SessionView;
import io.paysession.api.wire.WireFormat;
import io.paysession.webhook.admin.NotificationRecord;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** What the dashboard's tables show of a session and of a webhook: plain text, the templates escape it. */
final class SessionRows {

    private static final com.fasterxml.jackson.databind.ObjectMapper VIEW_JSON =
            io.paysession.api.wire.PaymentJson.newObjectMapper();

    private SessionRows() {
    }

    /** The methods of its payments and payouts, {@code payment:card, payout:iban}. */
    static String methods(SessionView view) {
        List<String> methods = new ArrayList<>();
        for (PaymentView payment : view.payments()) {
            if (payment.data().method() != null) {
                methods.add("payment:" + methodType(payment.data().method()));
            }
        }
        for (PayoutView payout : view.payouts()) {
            if (payout.data().method() != null) {
                methods.add("payout:" + methodType(payout.data().method()));
            }
        }
        return methods.stream().distinct().collect(Collectors.joining(", "));
    }

    /** The sum of its payments' and payouts' amounts per currency, {@code 100.00 RUB}. */
    static String amount(SessionView view) {
        Map<String, Long> totals = new java.util.TreeMap<>();
        view.payments().stream().map(payment -> payment.data().amount()).filter(java.util.Objects::nonNull)
                .forEach(money -> totals.merge(money.currencyCode(), money.minorUnits(), Long::sum));
        view.payouts().stream().map(payout -> payout.data().amount()).filter(java.util.Objects::nonNull)
                .forEach(money -> totals.merge(money.currencyCode(), money.minorUnits(), Long::sum));
        return totals.entrySet().stream().map(total -> decimal(total.getValue(), total.getKey(), true))
                .collect(Collectors.joining(", "));
    }

    /** Minor units as a decimal in the currency's own digits ({@code 100.00}), with its code when asked. */
    static String decimal(long minorUnits, String currency, boolean withCode) {
        String code = currency.toUpperCase(java.util.Locale.ROOT);
        int digits = java.util.Currency.getInstance(code).getDefaultFractionDigits();
        String amount = BigDecimal.valueOf(minorUnits, Math.max(digits, 0)).toPlainString();
        return withCode ? amount + " " + code : amount;
    }

    static Map<String, Object> notification(NotificationRecord notification) {
        Map<String, Object> row = new HashMap<>();
        row.put("id", notification.id().toString());
        row.put("type", notification.type());
        row.put("state", notification.state().wireName());
        row.put("created", WireFormat.timestamp(notification.createdAt()));
        if (notification.deliveredAt() != null) {
            row.put("delivered", WireFormat.timestamp(notification.deliveredAt()));
        }
        List<Map<String, Object>> attempts = new ArrayList<>();
        for (NotificationRecord.Attempt attempt : notification.attempts()) {
            Map<String, Object> line = new HashMap<>();
            line.put("number", attempt.number());
            line.put("time", WireFormat.timestamp(attempt.attemptedAt()));
            line.put("status", attempt.httpStatus() == null ? "no answer" : String.valueOf(attempt.httpStatus()));
            line.put("latency", attempt.latencyMillis() + " ms");
            line.put("error", attempt.error() == null ? "" : attempt.error());
            line.put("redelivery", attempt.redelivery() == 0 ? "" : "resend " + attempt.redelivery());
            attempts.add(line);
        }
        row.put("attempts", attempts);
        row.put("attempt_count", attempts.size());
        return row;
    }

    /** The method's type as the stored view names it (what {@code SessionSearch} looks for). */
    private static String methodType(Object method) {
        return VIEW_JSON.valueToTree(method).path("type").asText();
    }
}
