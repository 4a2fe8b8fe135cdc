package io.paysession.gateway.support;

import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSetMetaData;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.BiConsumer;

/** Every value of every table of the service's database, as text: what an attacker with a dump would read. */
public final class StoredText {

    private StoredText() {
    }

    /** Calls {@code visitor} with {@code table.column} and the value as text (bytes read as ISO-8859-1). */
    public static void forEachValue(JdbcTemplate jdbc, BiConsumer<String, String> visitor) {
        for (String table : jdbc.queryForList(
                "select table_name from information_schema.tables where table_schema = 'public'", String.class)) {
            jdbc.query("select * from " + table, row -> {
                ResultSetMetaData columns = row.getMetaData();
                for (int i = 1; i <= columns.getColumnCount(); i++) {
                    Object value = row.getObject(i);
                    String text = value instanceof byte[] bytes ? new String(bytes, StandardCharsets.ISO_8859_1)
                            : String.valueOf(value);
                    visitor.accept(table + "." + columns.getColumnName(i), text);
                }
            });
        }
    }

    /** The places ({@code table.column}) whose values hold any of {@code texts}. */
    public static List<String> placesHolding(JdbcTemplate jdbc, Collection<String> texts) {
        List<String> places = new ArrayList<>();
        forEachValue(jdbc, (place, value) -> {
            if (texts.stream().anyMatch(value::contains) && !places.contains(place)) {
                places.add(place);
            }
        });
        return places;
    }
}
