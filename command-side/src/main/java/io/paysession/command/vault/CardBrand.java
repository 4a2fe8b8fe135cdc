package io.paysession.command.vault;

/** The card network, from the leading digits of the number (IIN ranges). */
public enum CardBrand {
    VISA("visa"),
    MASTERCARD("mastercard"),
    MIR("mir"),
    AMEX("amex"),
    UNIONPAY("unionpay"),
    JCB("jcb"),
    MAESTRO("maestro"),
    UNKNOWN("unknown");

    private final String wireName;

    CardBrand(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    static CardBrand of(String digits) {
        int two = Integer.parseInt(digits.substring(0, 2));
        int four = Integer.parseInt(digits.substring(0, 4));
        if (four >= 2200 && four <= 2204) {
            return MIR;
        }
        if (digits.charAt(0) == '4') {
            return VISA;
        }
        if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) {
            return MASTERCARD;
        }
        if (two == 34 || two == 37) {
            return AMEX;
        }
        if (four >= 3528 && four <= 3589) {
            return JCB;
        }
        if (two == 62) {
            return UNIONPAY;
        }
        if (two == 50 || (two >= 56 && two <= 69)) {
            return MAESTRO;
        }
        return UNKNOWN;
    }
}
