package io.paysession.api.erasure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.paysession.api.erasure.PersonalData.Kind;
import io.paysession.api.erasure.PersonalData.PersonalPath;
import io.paysession.api.erasure.PersonalData.Rule;
import io.paysession.api.session.SessionCreatedEvent;
import io.paysession.api.wire.EventJsonRoundTripTest;
import io.paysession.api.wire.PaymentJson;
import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inventory of personal data in events (docs/erasure.md) cannot drift: every field of every event, and of every
 * value type an event carries, is classified in {@link PersonalData}; what is classified personal can be replaced by
 * the erased placeholder and still read back; the paths are those of the JSON the event store holds; and the
 * document lists each of them.
 */
class PersonalDataInventoryTest {

    private static final ObjectMapper JSON = PaymentJson.newObjectMapper();
    private static final List<String> EVENT_PACKAGES = List.of("io.paysession.api.session", "io.paysession.api.partner",
            "io.paysession.api.recurrent", "io.paysession.api.erasure");
    private static final TextNode PLACEHOLDER = TextNode.valueOf("[erased]");

    @Test
    void everyEventClassOfPaymentApiIsInTheInventory() throws Exception {
        Path classes = Path.of(SessionCreatedEvent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> events = new ArrayList<>();
        for (String pkg : EVENT_PACKAGES) {
            try (Stream<Path> files = Files.list(classes.resolve(pkg.replace('.', '/')))) {
                for (Path file : files.toList()) {
                    String name = file.getFileName().toString();
                    if (name.matches("[A-Za-z0-9]+Event\\.class")) {
                        Class<?> type = Class.forName(pkg + "." + name.substring(0, name.length() - ".class".length()));
                        if (!type.isInterface()) {
                            events.add(type);
                        }
                    }
                }
            }
        }
        assertThat(events).hasSizeGreaterThan(30);
        assertThat(PersonalData.EVENTS).containsExactlyInAnyOrderElementsOf(events);
    }

    /**
     * Walks every record component reachable from the events (sealed interfaces through all their subtypes): each must
     * be of a type that cannot hold personal data, or have a rule. A personal component must be a string or free-form
     * JSON, so that the erased placeholder (a string) always reads back; a nested one must be a value type with rules.
     */
    @Test
    void everyFieldReachableFromAnEventIsClassified() {
        List<String> problems = new ArrayList<>();
        Set<Class<?>> seen = new HashSet<>();
        for (Class<?> event : PersonalData.EVENTS) {
            walk(event, event.getSimpleName(), seen, problems);
        }
        assertThat(problems).as("unclassified or misclassified fields (classify them in PersonalData and "
                + "docs/erasure.md)").isEmpty();
    }

    private static void walk(Class<?> type, String path, Set<Class<?>> seen, List<String> problems) {
        for (Class<?> concrete : PersonalData.concreteTypes(type)) {
            if (!seen.add(concrete)) {
                continue;
            }
            if (!concrete.isRecord()) {
                problems.add(path + ": " + concrete.getName() + " is not a record, its fields cannot be walked");
                continue;
            }
            for (RecordComponent component : concrete.getRecordComponents()) {
                String where = concrete.getSimpleName() + "." + component.getName() + " (at " + path + ")";
                Optional<Rule> rule = PersonalData.rule(concrete, component.getName());
                Class<?> fieldType = component.getType();
                if (rule.isEmpty()) {
                    if (!PersonalData.structural(fieldType)) {
                        problems.add(where + ": " + fieldType.getSimpleName() + " has no rule");
                    }
                    continue;
                }
                switch (rule.get().kind()) {
                    case PERSONAL -> {
                        if (fieldType != String.class && fieldType != JsonNode.class) {
                            problems.add(where + ": personal, but a " + fieldType.getSimpleName()
                                    + " (only a string or free-form JSON takes the erased placeholder)");
                        }
                    }
                    case CLEAR -> {
                        if (rule.get().reason().isBlank()) {
                            problems.add(where + ": clear without a reason");
                        }
                    }
                    case NESTED -> {
                        if (fieldType == String.class || fieldType == JsonNode.class || Map.class.isAssignableFrom(fieldType)
                                || List.class.isAssignableFrom(fieldType)) {
                            problems.add(where + ": text cannot be nested, say personal or clear");
                        } else {
                            walk(fieldType, path + "." + component.getName(), seen, problems);
                        }
                    }
                }
            }
        }
    }

    @Test
    void whatIsPersonalIsWhatAUserWouldCallPersonal() {
        Map<String, List<String>> paths = new TreeMap<>();
        PersonalData.EVENTS.forEach(event -> paths.put(event.getSimpleName(),
                PersonalData.personalPaths(event).stream().map(PersonalPath::path).toList()));
        assertThat(paths.get("PaymentStartedEvent")).contains("payment.customer", "payment.participantDetails",
                "payment.metadata", "payment.items", "payment.paymentOptions", "payment.method.phone",
                "payment.method.description");
        assertThat(paths.get("PayoutStartedEvent")).contains("payout.customer", "payout.participantDetails",
                "payout.metadata", "payout.method.iban", "payout.method.phone", "payout.method.description");
        assertThat(paths.get("SessionCreatedEvent")).contains("paymentDraft.customer", "payoutDraft.method.iban");
        assertThat(paths.get("RefundRequestedEvent")).contains("metadata", "order.returnUrl");
        assertThat(paths.get("PaymentSucceededEvent")).containsExactly("transactionInfo.bankAccountRuToken");
        assertThat(paths.get("PaymentReadyToConfirmEvent")).isEmpty();
        assertThat(paths.get("PartnerRegisteredEvent")).isEmpty();
    }

    /**
     * On the stored JSON of a sample of every event: each leaf is either under a personal path or a clear field of the
     * inventory (so the paths are the serializer's, not guesses); with every personal leaf replaced by the placeholder
     * the event still reads back, and its amounts, ids, statuses and times are unchanged.
     */
    @Test
    void everyStoredLeafIsClassifiedAndThePlaceholderReadsBackEverywhere() throws Exception {
        List<String> problems = new ArrayList<>();
        int replaced = 0;
        for (Object message : EventJsonRoundTripTest.messages()) {
            if (!PersonalData.EVENTS.contains(message.getClass())) {
                continue;
            }
            Class<?> type = message.getClass();
            JsonNode stored = JSON.valueToTree(message);
            JsonNode erased = stored.deepCopy();
            PersonalData.rewriteLeaves(erased, type, leaf -> PLACEHOLDER);

            Set<String> personalLeaves = new TreeSet<>();
            Set<String> clearLeaves = new TreeSet<>();
            leaves(stored, erased, "", personalLeaves, clearLeaves);
            replaced += personalLeaves.size();
            for (String leaf : clearLeaves) {
                Set<String> clearFields = clearFieldPaths(type);
                boolean known = clearFields.stream().anyMatch(field -> leaf.equals(field) || leaf.startsWith(field + "."));
                if (!known && !isDiscriminator(leaf)) {
                    problems.add(type.getSimpleName() + "." + leaf + ": a stored leaf the inventory does not know");
                }
            }
            Object readBack = JSON.treeToValue(erased, type);
            assertThat(JSON.valueToTree(readBack).toString()).as(type.getSimpleName()).isEqualTo(erased.toString());
        }
        assertThat(problems).isEmpty();
        assertThat(replaced).as("personal leaves replaced in the samples").isGreaterThan(20);
    }

    private static void leaves(JsonNode stored, JsonNode erased, String path, Set<String> personal, Set<String> clear) {
        if (stored.isObject()) {
            stored.fieldNames().forEachRemaining(name -> leaves(stored.get(name), erased.get(name),
                    path.isEmpty() ? name : path + "." + name, personal, clear));
        } else if (stored.isArray()) {
            for (int i = 0; i < stored.size(); i++) {
                leaves(stored.get(i), erased.get(i), path, personal, clear);
            }
        } else if (!stored.isNull()) {
            (erased.equals(PLACEHOLDER) ? personal : clear).add(path);
        }
    }

    /** The JSON paths of the fields of {@code type} that the inventory says are clear (or cannot be personal). */
    private static Set<String> clearFieldPaths(Class<?> type) {
        Set<String> paths = new HashSet<>();
        clearPaths(type, "", paths, new HashSet<>());
        // free-form members the engine acts on, kept clear inside a personal tree
        for (PersonalPath personal : PersonalData.personalPaths(type)) {
            personal.clearInside().forEach(inside -> paths.add(personal.path() + "." + inside));
        }
        return paths;
    }

    private static void clearPaths(Class<?> type, String prefix, Set<String> into, Set<Class<?>> within) {
        for (Class<?> concrete : PersonalData.concreteTypes(type)) {
            if (!concrete.isRecord() || !within.add(concrete)) {
                continue;
            }
            for (RecordComponent component : concrete.getRecordComponents()) {
                String path = prefix + component.getName();
                Optional<Rule> rule = PersonalData.rule(concrete, component.getName());
                if (rule.isEmpty() || rule.get().kind() == Kind.CLEAR) {
                    into.add(path);
                    // structural values may be written as an object (Money's currency, say) or a map (qs, params)
                } else if (rule.get().kind() == Kind.NESTED) {
                    clearPaths(component.getType(), path + ".", into, within);
                }
            }
            within.remove(concrete);
        }
    }

    /** The {@code type} member Jackson writes for a polymorphic value (payment method, customer interaction). */
    private static boolean isDiscriminator(String leaf) {
        return leaf.endsWith(".type") || leaf.equals("type");
    }

    @Test
    void theInventoryDocumentNamesEveryPersonalPathOfEveryEvent() throws Exception {
        Path document = Path.of("..", "docs", "erasure.md");
        assertThat(document).exists();
        List<String> all = Files.readAllLines(document);
        int header = all.indexOf("| event | personal paths |");
        assertThat(header).as("the inventory table's header").isNotNegative();
        List<String> lines = all.subList(header + 2, all.size()).stream().takeWhile(line -> line.startsWith("|")).toList();
        List<String> missing = new ArrayList<>();
        for (Class<?> event : PersonalData.EVENTS) {
            String name = "`" + event.getSimpleName() + "`";
            List<String> rows = lines.stream().filter(line -> line.startsWith("| " + name)).toList();
            if (rows.size() != 1) {
                missing.add(event.getSimpleName() + ": " + rows.size() + " rows in the inventory table, 1 expected");
                continue;
            }
            List<PersonalPath> paths = PersonalData.personalPaths(event);
            for (PersonalPath path : paths) {
                if (!rows.get(0).contains("`" + path.path() + "`")) {
                    missing.add(event.getSimpleName() + ": " + path.path());
                }
            }
            if (paths.isEmpty() && !rows.get(0).contains("none")) {
                missing.add(event.getSimpleName() + ": the row should say none");
            }
        }
        assertThat(missing).isEmpty();
    }
}
