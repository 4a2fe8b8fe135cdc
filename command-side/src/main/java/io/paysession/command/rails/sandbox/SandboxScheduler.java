package io.paysession.command.rails.sandbox;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Answers of the sandbox rails arrive after a random latency, on the rails' own threads, as a network's would. */
@Component
@ConditionalOnSandboxRails
public class SandboxScheduler implements DisposableBean {

    private final SandboxProperties properties;
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(4, runnable -> {
        Thread thread = new Thread(runnable, "sandbox-rail");
        thread.setDaemon(true);
        return thread;
    });

    public SandboxScheduler(SandboxProperties properties) {
        this.properties = properties;
    }

    SandboxProperties properties() {
        return properties;
    }

    public <T> CompletionStage<T> later(Supplier<T> answer) {
        CompletableFuture<T> result = new CompletableFuture<>();
        scheduler.schedule(() -> {
            try {
                result.complete(answer.get());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        }, latency().toMillis(), TimeUnit.MILLISECONDS);
        return result;
    }

    private Duration latency() {
        long min = properties.cardLatencyMin().toMillis();
        long max = properties.cardLatencyMax().toMillis();
        return Duration.ofMillis(min == max ? min : ThreadLocalRandom.current().nextLong(min, max + 1));
    }

    @Override
    public void destroy() {
        scheduler.shutdownNow();
    }
}
