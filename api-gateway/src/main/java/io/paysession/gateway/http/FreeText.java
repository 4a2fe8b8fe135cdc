package io.paysession.gateway.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.paysession.api.error.PaymentsException;
import io.paysession.command.vault.CardNumber;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Refuses a card number in the free-form parts of a request ({@code metadata}, {@code items}, descriptions,
 * the customer's reference, ...): what a partner writes there is stored in events, read models and webhooks,
 * where no card number may go (decisions.md section 11). A card number is a run of 13 to 19 digits that
 * passes the Luhn check, written whole or in groups joined by spaces or hyphens
 * ({@code 4242 4242 4242 4242}); strings, numbers and member names are all read. The refusal is
 * {@code invalid_request} naming the field by its JSON path and never quoting it.
 * <p>
 * Only free text is read. Fields with a format of their own, where digit runs are the point (phones, a
 * recipient's document, a company's registration number, the return address) are not: they are listed as
 * exempt by the reader of each request.
 */
final class FreeText {

    private static final int MIN_DIGITS = 13;
    private static final int MAX_DIGITS = 19;
    private static final int MIN_GROUP = 3;
    private static final int MAX_GROUP = 6;
    private static final int MAX_SEPARATORS = 3;

    private final List<String> paths;
    private final Set<String> exempt;

    private FreeText(List<String> paths, Set<String> exempt) {
        this.paths = paths;
        this.exempt = exempt;
    }

    /**
     * The free text of a body: at each path (dot-separated member names, {@code name[]} for each element of
     * an array) the value and everything in it, but for the exempt paths (written the same way).
     */
    static FreeText at(List<String> paths, Set<String> exempt) {
        return new FreeText(List.copyOf(paths), Set.copyOf(exempt));
    }

    /** Throws {@code invalid_request} naming the first place that holds a card number. */
    void check(JsonNode body) {
        for (String path : paths) {
            visit(body, path.split("\\."), 0, "", "");
        }
    }

    private void visit(JsonNode node, String[] steps, int step, String path, String pattern) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return;
        }
        if (step == steps.length) {
            scan(node, path, pattern);
            return;
        }
        String name = steps[step];
        boolean eachElement = name.endsWith("[]");
        String member = eachElement ? name.substring(0, name.length() - 2) : name;
        JsonNode value = node.isObject() ? node.get(member) : null;
        String memberPath = Fields.path(path, member);
        String memberPattern = Fields.path(pattern, member);
        if (!eachElement) {
            visit(value, steps, step + 1, memberPath, memberPattern);
        } else if (value != null && value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                visit(value.get(i), steps, step + 1, memberPath + "[" + i + "]", memberPattern + "[]");
            }
        }
    }

    private void scan(JsonNode node, String path, String pattern) {
        if (exempt.contains(pattern)) {
            return;
        }
        if (node.isTextual()) {
            refuseIfCardNumber(node.textValue(), path);
        } else if (node.isNumber()) {
            refuseIfCardNumber(node.decimalValue().toPlainString(), path);
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                scan(node.get(i), path + "[" + i + "]", pattern + "[]");
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> members = node.fields(); members.hasNext(); ) {
                Map.Entry<String, JsonNode> member = members.next();
                if (holdsCardNumber(member.getKey())) {
                    // the name itself must not be repeated
                    throw PaymentsException.invalidRequest((path.isEmpty() ? "the body" : path)
                            + " has a member whose name holds a card number; send card numbers only in card fields");
                }
                scan(member.getValue(), Fields.path(path, member.getKey()), Fields.path(pattern, member.getKey()));
            }
        }
    }

    private static void refuseIfCardNumber(String text, String path) {
        if (holdsCardNumber(text)) {
            throw PaymentsException.invalidRequest(path
                    + " must not hold a card number; send card numbers only in card fields");
        }
    }

    /**
     * Whether the text holds 13 to 19 digits that pass the Luhn check: one run of digits, or consecutive groups
     * of 3 to 6 digits joined by up to 3 spaces or hyphens, as card numbers are written
     * ({@code 4242 4242 4242 4242}, {@code 3793-545081-62306}). Shorter groups (an expiry date, a list of sizes)
     * join nothing, and neither do longer ones. Digits that touch a letter are part of a word, not a number
     * written out: the identifiers partners put in free text (UUIDs, hex digests, {@code inv_...} references) have
     * digit runs between letters and groups of 8 and 12, and about one in ten such runs would pass the Luhn check
     * by chance. A card number glued to letters ({@code pan4242...}) is therefore not recognised; written as
     * people write it (alone, after a colon, in groups) it is.
     */
    static boolean holdsCardNumber(CharSequence text) {
        List<String> run = new ArrayList<>();
        int i = 0;
        int separatorsBefore = -1;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (!isDigit(c)) {
                separatorsBefore = isSeparator(c) && separatorsBefore >= 0 ? separatorsBefore + 1 : -1;
                i++;
                continue;
            }
            int start = i;
            while (i < text.length() && isDigit(text.charAt(i))) {
                i++;
            }
            String group = text.subSequence(start, i).toString();
            if (touchesALetter(text, start, i)) {
                if (anyCardNumber(run)) {
                    return true;
                }
                run.clear();
                separatorsBefore = -1;
                continue;
            }
            boolean joins = separatorsBefore >= 1 && separatorsBefore <= MAX_SEPARATORS
                    && joinable(group) && !run.isEmpty() && joinable(run.get(run.size() - 1));
            if (!joins) {
                if (anyCardNumber(run)) {
                    return true;
                }
                run.clear();
            }
            run.add(group);
            separatorsBefore = 0;
        }
        return anyCardNumber(run);
    }

    private static boolean joinable(String group) {
        return group.length() >= MIN_GROUP && group.length() <= MAX_GROUP;
    }

    private static boolean touchesALetter(CharSequence text, int start, int end) {
        return start > 0 && Character.isLetter(text.charAt(start - 1))
                || end < text.length() && Character.isLetter(text.charAt(end));
    }

    /** Whether consecutive groups of one run make a card number. */
    private static boolean anyCardNumber(List<String> groups) {
        for (int first = 0; first < groups.size(); first++) {
            StringBuilder digits = new StringBuilder();
            for (int last = first; last < groups.size() && digits.length() + groups.get(last).length() <= MAX_DIGITS;
                 last++) {
                digits.append(groups.get(last));
                if (digits.length() >= MIN_DIGITS && CardNumber.parse(digits.toString())
                        .map(CardNumber::passesLuhnCheck).orElse(false)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isSeparator(char c) {
        return c == ' ' || c == '-';
    }
}
