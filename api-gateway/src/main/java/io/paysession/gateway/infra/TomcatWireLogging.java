package io.paysession.gateway.infra;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tomcat quotes what a client sent in its logs: the request line or header line it could not parse
 * ({@code org.apache.coyote.http11.Http11Processor}, "Invalid character found in the request target [...]", at
 * INFO the first time, then at DEBUG), header lines ({@code Http11InputBuffer}, DEBUG), parameter and cookie values
 * ({@code org.apache.tomcat.util.http}, INFO then DEBUG), and the connector's other DEBUG output. A card number a
 * client put there would reach the log. A Logback turbo filter drops those events before any appender sees them,
 * whatever {@code logging.level.*}, {@code --debug} or a logging configuration file says, and whenever a level is
 * changed later:
 * <ul>
 * <li>below WARN for the loggers that quote client data: {@link #QUOTING_LOGGERS};</li>
 * <li>below INFO for the rest of Tomcat's connector and network code: {@link #WIRE_LOGGERS} (their INFO and
 * higher lines, such as "Starting ProtocolHandler", stay).</li>
 * </ul>
 * Spring Boot resets Logback's context when it sets logging up, so the filter is installed right after that
 * (this listener runs after {@link LoggingApplicationListener}, registered in {@code META-INF/spring.factories}),
 * once per context.
 */
public class TomcatWireLogging implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

    /** Loggers whose INFO lines quote a request line, a header line, a parameter or a cookie as received. */
    static final List<String> QUOTING_LOGGERS = List.of("org.apache.coyote.http11.Http11Processor",
            "org.apache.coyote.http11.Http11InputBuffer", "org.apache.tomcat.util.http");
    /** Tomcat's connectors and network code: their DEBUG lines may hold what a client sent. */
    static final List<String> WIRE_LOGGERS = List.of("org.apache.coyote", "org.apache.tomcat.util.net");

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        install();
    }

    @Override
    public int getOrder() {
        return LoggingApplicationListener.DEFAULT_ORDER + 1;
    }

    /** Adds the filter to Logback's context unless it is there already; nothing when Logback is not in use. */
    public static void install() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext context
                && context.getTurboFilterList().stream().noneMatch(NoWireBytes.class::isInstance)) {
            NoWireBytes filter = new NoWireBytes();
            filter.setName("no-wire-bytes");
            filter.setContext(context);
            filter.start();
            context.addTurboFilter(filter);
        }
    }

    /**
     * Denies what the wire loggers may not print; has no opinion on anything else. Logback asks a turbo filter at
     * every level check of every logger (each {@code isDebugEnabled()}), so where a logger stands is worked out once
     * per logger and kept.
     */
    static final class NoWireBytes extends TurboFilter {

        /** Where a logger stands: quoting client data, other wire code, or neither. */
        private enum Kind { QUOTING, WIRE, OTHER }

        private final Map<String, Kind> kinds = new ConcurrentHashMap<>();

        @Override
        public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
                                  Throwable t) {
            if (level == null || level.levelInt >= Level.WARN_INT) {
                return FilterReply.NEUTRAL;
            }
            Kind kind = kinds.computeIfAbsent(logger.getName(), NoWireBytes::kindOf);
            if (kind == Kind.QUOTING || (kind == Kind.WIRE && level.levelInt < Level.INFO_INT)) {
                return FilterReply.DENY;
            }
            return FilterReply.NEUTRAL;
        }

        private static Kind kindOf(String name) {
            if (within(name, QUOTING_LOGGERS)) {
                return Kind.QUOTING;
            }
            return within(name, WIRE_LOGGERS) ? Kind.WIRE : Kind.OTHER;
        }

        private static boolean within(String name, List<String> loggers) {
            for (String logger : loggers) {
                if (name.startsWith(logger)
                        && (name.length() == logger.length() || name.charAt(logger.length()) == '.')) {
                    return true;
                }
            }
            return false;
        }
    }
}
