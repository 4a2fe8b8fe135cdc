package io.paysession.command.recurrent;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Names of new recurrent tokens: {@code rt_} and 128 random bits in hex, from the platform's strong random source.
 * A token names a card or account that can be charged again; it was an MD5 name-based UUID of the sequential payment
 * id, so anyone could compute the token of any payment. Random names are recorded in the event that grants them,
 * so replaying the events still names every token the same.
 */
public final class RecurrentTokenNames {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int BYTES = 16;

    private RecurrentTokenNames() {
    }

    public static String newToken() {
        byte[] bytes = new byte[BYTES];
        RANDOM.nextBytes(bytes);
        return "rt_" + HexFormat.of().formatHex(bytes);
    }
}
