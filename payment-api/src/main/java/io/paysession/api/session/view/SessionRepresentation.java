package io.paysession.api.session.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.money.Money;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.BankAppMethod;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.WalletMethod;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.PayoutData;
import io.paysession.api.session.PayoutMethod;
import io.paysession.api.session.TransactionInfo;
import io.paysession.api.wire.WireFormat;

import java.time.Instant;

/**
 * A {@link SessionView} in the wire format of an API version (decisions.md section 1): the naming of
 * that version, microsecond {@code Z} timestamps, lower-case currencies, and absent values left out,
 * never {@code null}. Responses and webhooks both render sessions here.
 */
public final class SessionRepresentation {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private SessionRepresentation() {
    }

    /** The session in the naming of the version that created it (what webhooks carry). */
    public static ObjectNode render(SessionView view) {
        return render(view, view.apiVersion());
    }

    public static ObjectNode render(SessionView view, ApiVersion version) {
        ObjectNode session = JSON.objectNode();
        session.put("id", view.id());
        session.put("status", view.status().wireName());
        session.put("created_at", WireFormat.timestamp(view.createdAt()));
        session.put("updated_at", WireFormat.timestamp(view.updatedAt()));
        if (!view.payments().isEmpty()) {
            ArrayNode payments = session.putArray(version.paymentListName());
            view.payments().forEach(payment -> payments.add(renderPayment(payment)));
        }
        if (!view.payouts().isEmpty()) {
            ArrayNode payouts = session.putArray(version.payoutListName());
            view.payouts().forEach(payout -> payouts.add(renderPayout(payout, version)));
        }
        if (view.nextAction() != null) {
            session.put("next_action", view.nextAction().wireName());
        }
        if (view.confirmedAt() != null || view.capturedAt() != null) {
            ObjectNode actions = session.putObject("actions");
            putTimestamp(actions, "confirm", view.confirmedAt());
            putTimestamp(actions, "capture", view.capturedAt());
        }
        putError(session, view.error());
        return session;
    }

    private static ObjectNode renderPayment(PaymentView payment) {
        PaymentData data = payment.data();
        ObjectNode node = JSON.objectNode();
        node.put("id", payment.id());
        node.put("status", payment.state().wireStatus());
        node.put("created_at", WireFormat.timestamp(payment.createdAt()));
        putTimestamp(node, "finished_at", payment.finishedAt());
        putIfPresent(node, "customer", data.customer());
        node.set("payment_details", renderMethod(data.method()));
        node.set("amount_details", renderMoney(data.amount()));
        putAmounts(node, payment);
        putIfPresent(node, "payment_options", data.paymentOptions());
        putIfPresent(node, "metadata", data.metadata());
        putIfPresent(node, "participant_details", data.participantDetails());
        putInteraction(node, payment.customerInteraction());
        if (payment.recurrent() != null) {
            ObjectNode recurrent = node.putObject("recurrent")
                    .put("token", payment.recurrent().token())
                    .put("created_at", WireFormat.timestamp(payment.recurrent().createdAt()));
            putTimestamp(recurrent, "finished_at", payment.recurrent().finishedAt());
            recurrent.put("is_active", payment.recurrent().active())
                    .put("type", "recurrent_token");
        }
        putTransactionInfo(node, payment.transactionInfo());
        putError(node, payment.error());
        if (!payment.refunds().isEmpty()) {
            ArrayNode refunds = node.putArray("refunds");
            payment.refunds().forEach(refund -> refunds.add(renderRefund(refund)));
        }
        return node;
    }

    private static ObjectNode renderPayout(PayoutView payout, ApiVersion version) {
        PayoutData data = payout.data();
        ObjectNode node = JSON.objectNode();
        node.put("id", payout.id());
        node.put("status", payout.wireStatus());
        node.put("created_at", WireFormat.timestamp(payout.createdAt()));
        putTimestamp(node, "finished_at", payout.finishedAt());
        putIfPresent(node, "customer", data.customer());
        node.set(version.payoutDetailsName(), renderPayoutMethod(data.method()));
        if (data.amount() != null) {
            node.set("amount_details", renderMoney(data.amount()));
        }
        putIfPresent(node, "participant_details", data.participantDetails());
        putIfPresent(node, "metadata", data.metadata());
        putTransactionInfo(node, payout.transactionInfo());
        putError(node, payout.error());
        return node;
    }

    private static ObjectNode renderPayoutMethod(PayoutMethod method) {
        ObjectNode details = JSON.objectNode();
        if (method instanceof PayoutMethod.Card card) {
            details.put("type", "card");
            details.putObject("card").put("brand", card.brand()).put("bin", card.bin()).put("last4", card.last4());
            return details;
        }
        details.put("type", "bank_account");
        ObjectNode account = details.putObject("bank_account");
        if (method instanceof PayoutMethod.Iban iban) {
            account.put("system_type", iban.systemType());
            if ("iban".equals(iban.systemType())) {
                account.putObject("iban").put("account", iban.iban());
            } else {
                ObjectNode global = account.putObject("global").put("iban", iban.iban());
                putText(global, "description", iban.description());
            }
        } else if (method instanceof PayoutMethod.FasterPayment fps) {
            ObjectNode node = account.put("system_type", "faster_payment_system").putObject("faster_payment_system")
                    .put("phone", fps.phone()).put("bank_id", fps.bankId());
            putText(node, "description", fps.description());
        } else if (method instanceof PayoutMethod.FasterPaymentVerification verification) {
            account.put("system_type", "faster_payment_system_verification")
                    .putObject("faster_payment_system_verification")
                    .put("phone", verification.phone()).put("bank_id", verification.bankId());
        }
        return details;
    }

    /**
     * {@code gross} is what was debited (less than the amount after a partial capture), {@code net} that less the fee:
     * negative when the fee is larger than the payment (a fixed fee on a small amount).
     */
    private static void putAmounts(ObjectNode node, PaymentView payment) {
        if (payment.merchantFee() == null && payment.capturedAmount() == null || !payment.data().method().charges()) {
            return;
        }
        ObjectNode amounts = node.putObject("amounts");
        if (payment.capturedAmount() != null) {
            amounts.set("gross", renderMoney(payment.capturedAmount()));
            if (payment.merchantFee() != null) {
                // both are at most Long.MAX_VALUE and at least 0, so the difference cannot overflow
                amounts.putObject("net")
                        .put("amount", payment.capturedAmount().minorUnits() - payment.merchantFee().minorUnits())
                        .put("currency", payment.capturedAmount().currencyCode());
            }
        }
        if (payment.merchantFee() != null) {
            amounts.putObject("fee").set("merchant_fee", renderMoney(payment.merchantFee()));
        }
    }

    private static ObjectNode renderRefund(RefundView refund) {
        ObjectNode node = JSON.objectNode();
        node.put("id", refund.id());
        node.put("status", refund.state().wireStatus());
        node.put("created_at", WireFormat.timestamp(refund.createdAt()));
        putTimestamp(node, "finished_at", refund.finishedAt());
        node.set("amount_details", renderMoney(refund.amount()));
        putIfPresent(node, "metadata", refund.metadata());
        if (refund.chargeback()) {
            node.put("is_chargeback", true);
        }
        putError(node, refund.error());
        return node;
    }

    private static void putInteraction(ObjectNode node, CustomerInteraction interaction) {
        if (interaction instanceof CustomerInteraction.Redirect redirect) {
            ObjectNode interactionNode = node.putObject("customer_interaction").put("type", "redirect");
            ObjectNode redirectNode = interactionNode.putObject("redirect");
            redirectNode.put("url", redirect.url());
            redirectNode.put("base_url", redirect.baseUrl());
            redirectNode.put("method", redirect.method());
            ObjectNode qs = redirectNode.putObject("qs");
            redirect.qs().forEach(qs::put);
            ObjectNode params = redirectNode.putObject("params");
            redirect.params().forEach(params::put);
        } else if (interaction instanceof CustomerInteraction.InformQr inform) {
            node.putObject("customer_interaction").put("type", "inform")
                    .putObject("inform").putObject("qr").put("content", inform.content());
        }
    }

    private static ObjectNode renderMethod(PaymentMethod method) {
        ObjectNode details = JSON.objectNode();
        details.put("type", method.wireType());
        if (method instanceof CardMethod card) {
            ObjectNode cardNode = details.putObject("card");
            cardNode.put("brand", card.brand());
            cardNode.put("bin", card.bin());
            cardNode.put("last4", card.last4());
        } else if (method instanceof WalletMethod) {
            details.putObject("wallet").put("type", "ewallet").putObject("ewallet");
        } else if (method instanceof BankAppMethod) {
            details.putObject("internet_banking").put("type", "bank_app_pay");
        } else if (method instanceof QrAppMethod qr) {
            ObjectNode qrNode = details.putObject("internet_banking").put("type", "qr_app_pay").putObject("qr_app_pay");
            putText(qrNode, "phone", qr.phone());
            putText(qrNode, "channel", qr.channel());
        } else if (method instanceof FasterPaymentMethod fps) {
            ObjectNode fpsNode = details.putObject("faster_payment_system");
            putText(fpsNode, "description", fps.description());
        } else if (method instanceof RecurrentMethod recurrent) {
            details.putObject("recurrent").put("token", recurrent.token())
                    .put("initiator", recurrent.initiator().wireName());
        }
        return details;
    }

    private static void putText(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    public static ObjectNode renderMoney(Money money) {
        ObjectNode node = JSON.objectNode();
        node.put("amount", money.minorUnits());
        node.put("currency", money.currencyCode());
        return node;
    }

    private static void putTransactionInfo(ObjectNode node, TransactionInfo info) {
        if (info == null) {
            return;
        }
        ObjectNode infoNode = JSON.objectNode();
        if (info.rrn() != null) {
            infoNode.put("rrn", info.rrn());
        }
        if (info.authCode() != null) {
            infoNode.put("auth_code", info.authCode());
        }
        if (info.fpMessageId() != null) {
            infoNode.put("fp_message_id", info.fpMessageId());
        }
        if (info.bankAccountRuToken() != null) {
            infoNode.put("bank_account_ru_token", info.bankAccountRuToken());
        }
        if (!infoNode.isEmpty()) {
            node.set("transaction_info", infoNode);
        }
    }

    public static void putError(ObjectNode node, ErrorDetails error) {
        if (error != null) {
            ObjectNode errorNode = node.putObject("error");
            errorNode.put("code", error.code().code());
            errorNode.put("description", error.description());
        }
    }

    private static void putTimestamp(ObjectNode node, String field, Instant instant) {
        if (instant != null) {
            node.put(field, WireFormat.timestamp(instant));
        }
    }

    private static void putIfPresent(ObjectNode node, String field, JsonNode value) {
        if (value != null && !value.isNull() && !value.isMissingNode()) {
            node.set(field, value.deepCopy());
        }
    }
}
