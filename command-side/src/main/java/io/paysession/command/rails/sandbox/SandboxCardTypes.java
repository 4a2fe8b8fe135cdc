package io.paysession.command.rails.sandbox;

import io.paysession.command.rails.CardType;
import io.paysession.command.rails.CardTypes;
import org.springframework.stereotype.Component;

import java.util.Map;

/**
 * The sandbox's issuer ranges: the ranges of its test cards (docs/decisions.md, "Sandbox test cards") have a
 * type, as a real range directory would give them; every other range is unknown.
 */
@Component
@ConditionalOnSandboxRails
public class SandboxCardTypes implements CardTypes {

    private static final Map<String, CardType> RANGES = Map.of(
            "424242", CardType.CREDIT,   // 4242 4242 4242 4242
            "555555", CardType.DEBIT,    // 5555 5555 5555 4444
            "220000", CardType.DEBIT,    // 2200 0000 0000 0004 (MIR)
            "400000", CardType.CREDIT,   // 4000 0000 0000 xxxx: the 3-D Secure, decline and time-out cards
            "510510", CardType.PREPAID); // 5105 1051 0510 5100

    @Override
    public CardType typeOf(String bin) {
        if (bin == null || bin.length() < 6) {
            return CardType.UNKNOWN;
        }
        return RANGES.getOrDefault(bin.substring(0, 6), CardType.UNKNOWN);
    }
}
