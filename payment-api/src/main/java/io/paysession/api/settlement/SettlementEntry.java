package io.paysession.api.settlement;

import io.paysession.api.money.Money;

import java.time.LocalDate;
import java.util.Objects;

/**
 * One settled operation: on its UTC day, in its currency, by method and kind. Payments and captures add
 * their gross less the fee; refunds, chargebacks and payouts take their amount off ({@code net} negative).
 */
public record SettlementEntry(String entryId,
                              String project,
                              LocalDate day,
                              String currency,
                              String method,
                              Operation operation,
                              String sessionId,
                              String operationId,
                              long gross,
                              long fee,
                              long net,
                              long globalIndex) {

    public enum Operation {
        PAYMENT("payment"), CAPTURE("capture"), REFUND("refund"), CHARGEBACK("chargeback"), PAYOUT("payout");

        private final String wireName;

        Operation(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Operation fromWireName(String name) {
            for (Operation operation : values()) {
                if (operation.wireName.equals(name)) {
                    return operation;
                }
            }
            throw new IllegalArgumentException("unknown operation " + name);
        }
    }

    public SettlementEntry {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(day, "day");
    }

    static SettlementEntry of(String entryId, String project, LocalDate day, String method, Operation operation,
                              String sessionId, String operationId, Money gross, long fee, long net, long globalIndex) {
        return new SettlementEntry(entryId, project, day, gross.currencyCode(), method, operation, sessionId,
                operationId, gross.minorUnits(), fee, net, globalIndex);
    }
}
