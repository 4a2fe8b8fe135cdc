package io.paysession.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a valid request body into a broken or odd one, drawn from a seeded {@link Random} so that a failing
 * run is replayed by its seed. Tree mutations change one member anywhere in the body (drop it, give it another
 * type, an extreme value); raw mutations break the text itself (a duplicated key, a cut, bytes that are not
 * UTF-8, escapes no store can hold, deep nesting, another top-level value).
 */
public final class RequestMutator {

    /** A mutated body and what was done to it, for the failure report. */
    public record Mutated(byte[] body, String mutation) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern KEY = Pattern.compile("\\{\"([^\"\\\\]+)\":");
    private static final Pattern STRING_VALUE = Pattern.compile(":\"");
    private static final Pattern NUMBER_VALUE = Pattern.compile(":(-?[0-9]+)");

    private final Random random;

    public RequestMutator(Random random) {
        this.random = random;
    }

    public Mutated mutate(JsonNode valid) {
        int kind = random.nextInt(10);
        if (kind < 6) {
            return tree(valid.deepCopy());
        }
        return raw(text(valid));
    }

    private Mutated tree(JsonNode body) {
        List<Slot> slots = new ArrayList<>();
        collect(body, "", slots);
        if (slots.isEmpty()) {
            return raw(text(body));
        }
        Slot slot = slots.get(random.nextInt(slots.size()));
        int choice = random.nextInt(4);
        String mutation;
        if (choice == 0 && slot.key != null) {
            ((ObjectNode) slot.parent).remove(slot.key);
            mutation = "drop " + slot.path;
        } else if (choice == 1 && slot.key != null) {
            ((ObjectNode) slot.parent).set("unknown_" + random.nextInt(100), value());
            mutation = "unknown field beside " + slot.path;
        } else {
            JsonNode value = value();
            slot.set(value);
            mutation = "set " + slot.path + " to " + preview(value.toString());
        }
        return new Mutated(text(body).getBytes(StandardCharsets.UTF_8), mutation);
    }

    /** Values of every JSON type, and the extremes that break naive readers. */
    private JsonNode value() {
        return switch (random.nextInt(18)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.arrayNode();
            case 2 -> NODES.objectNode();
            case 3 -> NODES.booleanNode(random.nextBoolean());
            case 4 -> NODES.numberNode(new BigInteger("9".repeat(20 + random.nextInt(20))));
            case 5 -> NODES.numberNode(-1 - random.nextInt(1000));
            case 6 -> NODES.numberNode(new BigDecimal("100.5"));
            case 7 -> NODES.numberNode(0);
            case 8 -> NODES.textNode("x".repeat(1000 + random.nextInt(20_000)));
            case 9 -> NODES.textNode("ру€ 😀 \u202e\u0301 ñ 日本");
            case 10 -> NODES.textNode("\"'<>%{}\\\t\n;--");
            case 11 -> NODES.textNode("");
            case 12 -> NODES.textNode(String.valueOf(random.nextInt(100_000)));
            case 13 -> NODES.numberNode(Long.MAX_VALUE);
            case 14 -> nested(20 + random.nextInt(30));
            case 15 -> NODES.numberNode(new BigDecimal("1e" + (random.nextBoolean() ? "" : "-") + (250 + random.nextInt(1500))));
            case 16 -> NODES.arrayNode().add(1).add("two").addNull();
            default -> NODES.textNode("4242424242424242");
        };
    }

    private Mutated raw(String text) {
        return switch (random.nextInt(12)) {
            case 0 -> duplicateKey(text);
            case 1 -> {
                int cut = random.nextInt(Math.max(1, text.length()));
                yield new Mutated(utf8(text.substring(0, cut)), "truncate at " + cut);
            }
            case 2 -> invalidUtf8(text);
            case 3 -> escapeInString(text, "\\u0000", "NUL escape");
            case 4 -> escapeInString(text, random.nextBoolean() ? "\\ud800" : "\\udfff", "unpaired surrogate escape");
            case 5 -> {
                int depth = 30 + random.nextInt(40);
                String nested = "{\"deep\":" + "[".repeat(depth) + "]".repeat(depth) + "," + text.substring(1);
                yield new Mutated(utf8(nested), "nest " + depth + " deep");
            }
            case 6 -> {
                String[] others = {"\"text\"", "42", "null", "true", "[1]", "[{}]", "", " ", "{}", "[]"};
                String other = others[random.nextInt(others.length)];
                yield new Mutated(utf8(other), "body " + other);
            }
            case 7 -> new Mutated(utf8(text + (random.nextBoolean() ? "x" : "{}")), "trailing data");
            case 8 -> hugeNumber(text);
            case 9 -> new Mutated(concat(new byte[]{(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8(text)), "byte order mark");
            case 10 -> new Mutated(utf8("{\"x\":\"" + "y".repeat(66 * 1024) + "\"}"), "body over 64 KiB");
            default -> flipByte(text);
        };
    }

    private Mutated duplicateKey(String text) {
        List<MatchResult> keys = matches(KEY, text);
        if (keys.isEmpty()) {
            return new Mutated(utf8("{\"a\":1,\"a\":2}"), "duplicate key a");
        }
        MatchResult key = keys.get(random.nextInt(keys.size()));
        String duplicated = text.substring(0, key.start + 1) + "\"" + key.group + "\":0," + text.substring(key.start + 1);
        return new Mutated(utf8(duplicated), "duplicate key " + key.group);
    }

    private Mutated invalidUtf8(String text) {
        byte[][] sequences = {{(byte) 0xFF}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0x80}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
                {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xC3}};
        byte[] sequence = sequences[random.nextInt(sequences.length)];
        List<MatchResult> strings = matches(STRING_VALUE, text);
        int at = strings.isEmpty() ? random.nextInt(text.length() + 1) : strings.get(random.nextInt(strings.size())).end;
        byte[] bytes = utf8(text.substring(0, at));
        return new Mutated(concat(bytes, sequence, utf8(text.substring(at))), "invalid UTF-8 at " + at);
    }

    private Mutated escapeInString(String text, String escape, String name) {
        List<MatchResult> strings = matches(STRING_VALUE, text);
        if (strings.isEmpty()) {
            return new Mutated(utf8("{\"metadata\":\"" + escape + "\"}"), name + " in metadata");
        }
        int at = strings.get(random.nextInt(strings.size())).end;
        return new Mutated(utf8(text.substring(0, at) + escape + text.substring(at)), name + " at " + at);
    }

    private Mutated hugeNumber(String text) {
        String[] huge = {"1e999999999", "1e9999999999", "-1e-99999", "9".repeat(40), "1" + "0".repeat(31), "-0", "1.0e3"};
        String number = huge[random.nextInt(huge.length)];
        List<MatchResult> numbers = matches(NUMBER_VALUE, text);
        if (numbers.isEmpty()) {
            return new Mutated(utf8("{\"n\":" + number + "," + text.substring(1)), "number " + number + " added");
        }
        MatchResult found = numbers.get(random.nextInt(numbers.size()));
        return new Mutated(utf8(text.substring(0, found.start + 1) + number + text.substring(found.end)),
                "number " + found.group + " replaced by " + number);
    }

    private Mutated flipByte(String text) {
        byte[] bytes = utf8(text);
        if (bytes.length == 0) {
            return new Mutated(new byte[]{(byte) 0xFE}, "byte FE");
        }
        int at = random.nextInt(bytes.length);
        bytes[at] ^= (byte) (1 << random.nextInt(8));
        return new Mutated(bytes, "bit flipped at " + at);
    }

    private JsonNode nested(int depth) {
        JsonNode node = NODES.arrayNode();
        for (int i = 0; i < depth; i++) {
            ArrayNode outer = NODES.arrayNode();
            outer.add(node);
            node = outer;
        }
        return node;
    }

    /** A member of an object or an element of an array, and how to replace it. */
    private record Slot(JsonNode parent, String key, int index, String path) {
        void set(JsonNode value) {
            if (key != null) {
                ((ObjectNode) parent).set(key, value);
            } else {
                ((ArrayNode) parent).set(index, value);
            }
        }
    }

    private static void collect(JsonNode node, String path, List<Slot> slots) {
        if (node.isObject()) {
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                String childPath = path.isEmpty() ? name : path + "." + name;
                slots.add(new Slot(node, name, -1, childPath));
                collect(node.get(name), childPath, slots);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String childPath = path + "[" + i + "]";
                slots.add(new Slot(node, null, i, childPath));
                collect(node.get(i), childPath, slots);
            }
        }
    }

    private record MatchResult(int start, int end, String group) {
    }

    private static List<MatchResult> matches(Pattern pattern, String text) {
        List<MatchResult> found = new ArrayList<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(new MatchResult(matcher.start(), matcher.end(), matcher.groupCount() > 0 ? matcher.group(1) : ""));
        }
        return found;
    }

    public static String text(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String preview(String text) {
        String flat = text.replaceAll("[\\p{Cntrl}]", "?");
        return flat.length() <= 80 ? flat : flat.substring(0, 80) + "…(" + flat.length() + ")";
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
