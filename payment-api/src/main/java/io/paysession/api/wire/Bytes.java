package io.paysession.api.wire;

/** Searching raw bytes (stored payloads, webhook bodies) without decoding them. */
public final class Bytes {

    private Bytes() {
    }

    /** Where {@code part} first stands in {@code bytes}; -1 when it does not. */
    public static int indexOf(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i <= bytes.length - part.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    public static boolean contains(byte[] bytes, byte[] part) {
        return indexOf(bytes, part) >= 0;
    }
}
