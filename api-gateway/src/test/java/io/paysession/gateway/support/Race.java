package io.paysession.gateway.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests released at the same instant from a pool, so that they race inside the service. */
public final class Race {

    private Race() {
    }

    /** Runs every request once, all let go together; their answers in the order given. */
    public static <T> List<T> run(ExecutorService pool, List<Callable<T>> requests) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (Callable<T> request : requests) {
            futures.add(pool.submit(() -> {
                start.await();
                return request.call();
            }));
        }
        start.countDown();
        List<T> answers = new ArrayList<>();
        for (Future<T> future : futures) {
            answers.add(future.get(60, TimeUnit.SECONDS));
        }
        return answers;
    }

    /** How many sessions the event store holds that were created by requests of {@code project} with {@code key}. */
    public static long sessionsCreatedWithKey(JdbcTemplate jdbc, String project, String key) {
        return jdbc.queryForObject("""
                select count(*) from domain_event_entry
                where payload_type like '%.SessionCreatedEvent'
                  and convert_from(meta_data, 'UTF8')::jsonb ->> 'project' = ?
                  and convert_from(meta_data, 'UTF8')::jsonb ->> 'idempotencyKey' = ?""",
                Long.class, project, key);
    }

    /**
     * Racing requests with one idempotency key: each answer is the one session (as first answer or as a replay)
     * or a refusal because the key's request was still running, and at least one got the session.
     */
    public static void assertOneSessionAnswered(List<Answer> answers, String label) {
        List<String> sessions = new ArrayList<>();
        for (Answer answer : answers) {
            if (answer.status() == 200) {
                sessions.add(answer.session().path("id").asText());
            } else {
                assertThat(answer.status()).as(label + ": " + answer).isEqualTo(400);
                assertThat(answer.errorCode()).as(label).isEqualTo("idempotency_key_already_exists");
            }
        }
        assertThat(sessions).as(label).isNotEmpty().allMatch(sessions.get(0)::equals);
    }
}
