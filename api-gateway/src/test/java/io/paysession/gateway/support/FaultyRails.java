package io.paysession.gateway.support;

import io.paysession.api.money.Money;
import io.paysession.api.session.RefundId;
import io.paysession.command.rails.PaymentRail;
import io.paysession.command.rails.PayoutOperation;
import io.paysession.command.rails.PayoutRail;
import io.paysession.command.rails.RailOperation;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Test only, switched on by {@code payments.test.faulty-rails=true}: every rail bean (the sandbox adapters) is
 * wrapped, behind the same ports, by a proxy that
 * <ul>
 *   <li>counts each money-moving call (authorize, capture, refund, payout send) and each query as a line
 *   {@code <kind> <operation id> call|query} of {@link #LOG} in the data directory, outside the JVM, so that a
 *   test counts them across a killed process;</li>
 *   <li>misbehaves on money-moving calls chosen by their amount (minor units): ending in {@code 91} the rail
 *   does the operation and its answer comes {@code payments.test.faulty-rails.slow-by} late (default 5 s,
 *   longer than the answer time-out a test sets); ending in {@code 92} the rail does the operation and its
 *   answer fails; ending in {@code 93} the rail does the operation, a line {@code <kind> <id> done} is
 *   written, and no answer ever comes (the test kills the JVM then).</li>
 * </ul>
 * Queries, pre-checks, releases and the payer's decisions pass through unchanged.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "payments.test.faulty-rails", havingValue = "true")
public class FaultyRails {

    public static final String LOG = "rail-calls.log";

    @Bean
    static BeanPostProcessor faultyRailsProxies(@Value("${payments.data.dir}") String dataDirectory,
                                                @Value("${payments.test.faulty-rails.slow-by:5s}") Duration slowBy) {
        Path log = Path.of(dataDirectory).resolve(LOG);
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (!(bean instanceof PaymentRail) && !(bean instanceof PayoutRail)) {
                    return bean;
                }
                return Proxy.newProxyInstance(bean.getClass().getClassLoader(),
                        ClassUtils.getAllInterfacesForClass(bean.getClass()),
                        (proxy, method, args) -> invoke(bean, method, args, log, slowBy));
            }
        };
    }

    /** The lines of the log of {@code dataDirectory}: {@code <kind> <operation id> call|query|done}. */
    public static List<String> calls(Path dataDirectory) {
        Path log = dataDirectory.resolve(LOG);
        try {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Operation(String kind, String id, Money amount) {
    }

    private static Object invoke(Object rail, Method method, Object[] args, Path log, Duration slowBy)
            throws Throwable {
        Operation operation = operationOf(method.getName(), args);
        boolean query = method.getName().startsWith("query");
        if (operation != null) {
            write(log, operation.kind() + " " + operation.id() + (query ? " query" : " call"));
        }
        Object result;
        try {
            // the sandbox's own interfaces (the payer's decisions) are package-private
            method.setAccessible(true);
            result = method.invoke(rail, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        if (operation == null || query || operation.amount() == null) {
            return result;
        }
        CompletionStage<?> answer = (CompletionStage<?>) result;
        return switch ((int) (operation.amount().minorUnits() % 100)) {
            case 91 -> answer.thenCompose(done -> CompletableFuture.supplyAsync(() -> done,
                    CompletableFuture.delayedExecutor(slowBy.toMillis(), TimeUnit.MILLISECONDS)));
            case 92 -> answer.thenCompose(done -> CompletableFuture.failedFuture(
                    new IllegalStateException("connection reset after the rail took the request")));
            case 93 -> {
                answer.thenAccept(done -> write(log, operation.kind() + " " + operation.id() + " done"));
                yield new CompletableFuture<>();
            }
            default -> answer;
        };
    }

    /** The money-moving call (or its query) a method of the ports is, or null for any other method. */
    private static Operation operationOf(String method, Object[] args) {
        return switch (method) {
            case "authorize", "queryOutcome" -> args[0] instanceof RailOperation payment
                    ? new Operation("authorize", payment.paymentId().value(), payment.order().amount())
                    : args[0] instanceof PayoutOperation payout
                    ? new Operation("payout", payout.payoutId().value(), payout.payout().amount()) : null;
            case "send" -> {
                PayoutOperation payout = (PayoutOperation) args[0];
                yield new Operation("payout", payout.payoutId().value(), payout.payout().amount());
            }
            case "capture", "queryCapture" ->
                    new Operation("capture", ((RailOperation) args[0]).paymentId().value(), (Money) args[1]);
            case "refund", "queryRefund" -> new Operation("refund", ((RefundId) args[1]).value(), (Money) args[2]);
            default -> null;
        };
    }

    private static synchronized void write(Path log, String line) {
        try {
            Files.writeString(log, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
