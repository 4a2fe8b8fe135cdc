package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.partner.PartnerView;
import io.paysession.query.settlement.WalletBalances;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * {@code wallet/balance {request_datetime}} (production-facts section 7): the partner's balance per currency as it
 * stood at that instant, one wallet per currency it has settled in ({@code id} the project and the currency),
 * derived from the settlement entries the reconciliation report sums: payments and captures less their fees, less
 * refunds, chargebacks and payouts. An instant more than a minute ahead of the service's clock is refused; one within
 * that minute is read as now.
 */
@RestController
public class WalletController {

    private static final Duration CLOCK_SKEW = Duration.ofMinutes(1);

    private final WalletBalances balances;
    private final Clock clock;

    public WalletController(WalletBalances balances, Clock clock) {
        this.balances = balances;
        this.clock = clock;
    }

    @PostMapping("/api/{version}/wallet/balance")
    public ResponseEntity<ObjectNode> balance(@PathVariable String version, HttpServletRequest request) {
        SessionController.version(version);
        PartnerView partner = SessionController.partner(request);
        String text = Fields.requiredText(SessionController.body(request), "request_datetime", "");
        Instant at;
        try {
            at = OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw PaymentsException.invalidRequest("request_datetime must be an ISO 8601 date and time with its offset, "
                    + "e.g. 2026-11-27T10:15:30Z");
        }
        Instant now = clock.instant();
        if (at.isAfter(now.plus(CLOCK_SKEW))) {
            throw PaymentsException.invalidRequest("request_datetime must not be in the future");
        }
        Instant asOf = at.isAfter(now) ? now : at;
        ObjectNode answer = ApiResponses.ok();
        ArrayNode wallets = answer.putArray("wallets");
        balances.at(partner.project(), asOf).forEach((currency, net) -> {
            ObjectNode wallet = wallets.addObject().put("id", partner.project() + ":" + currency);
            wallet.putObject("amount_details").put("amount", net).put("currency", currency);
        });
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer);
    }
}
