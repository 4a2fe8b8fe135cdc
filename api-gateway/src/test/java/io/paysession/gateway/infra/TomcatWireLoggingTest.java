package io.paysession.gateway.infra;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which of Tomcat's lines get through, with every logger at TRACE: none below WARN from the loggers that quote
 * what a client sent, none below INFO from the rest of the connector, everything from everyone else.
 */
class TomcatWireLoggingTest {

    private static final List<String> NAMES = List.of("org.apache.coyote.http11.Http11Processor",
            "org.apache.coyote.http11.Http11InputBuffer", "org.apache.tomcat.util.http.Parameters",
            "org.apache.coyote.http11.Http11NioProtocol", "org.apache.tomcat.util.net.NioEndpoint",
            "org.apache.coyoteish.NotTomcat", "io.paysession.gateway.http.SessionController");

    private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    /** Logback passes level changes on to java.util.logging, where Tomcat reads them: put back as they were. */
    private final Map<String, java.util.logging.Level> julLevels = new HashMap<>();

    @BeforeEach
    void everyLoggerAtTrace() {
        appender.setContext(context);
        appender.start();
        for (String name : NAMES) {
            julLevels.put(name, java.util.logging.Logger.getLogger(name).getLevel());
            Logger logger = context.getLogger(name);
            logger.setLevel(Level.TRACE);
            logger.addAppender(appender);
        }
    }

    @AfterEach
    void restore() {
        for (String name : NAMES) {
            Logger logger = context.getLogger(name);
            logger.setLevel(null);
            logger.detachAppender(appender);
            java.util.logging.Logger.getLogger(name).setLevel(julLevels.get(name));
        }
    }

    @Test
    void whatAClientSentIsNeverPrintedWhateverTheLevel() {
        TomcatWireLogging.install();
        TomcatWireLogging.install();
        assertThat(context.getTurboFilterList()).filteredOn(TomcatWireLogging.NoWireBytes.class::isInstance)
                .as("installed once however often it is asked").hasSize(1);

        for (String name : NAMES) {
            org.slf4j.Logger logger = LoggerFactory.getLogger(name);
            logger.trace("trace {}", name);
            logger.debug("debug {}", name);
            logger.info("info {}", name);
            logger.warn("warn {}", name);
        }

        assertThat(appender.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "warn org.apache.coyote.http11.Http11Processor",
                "warn org.apache.coyote.http11.Http11InputBuffer",
                "warn org.apache.tomcat.util.http.Parameters",
                "info org.apache.coyote.http11.Http11NioProtocol", "warn org.apache.coyote.http11.Http11NioProtocol",
                "info org.apache.tomcat.util.net.NioEndpoint", "warn org.apache.tomcat.util.net.NioEndpoint",
                "trace org.apache.coyoteish.NotTomcat", "debug org.apache.coyoteish.NotTomcat",
                "info org.apache.coyoteish.NotTomcat", "warn org.apache.coyoteish.NotTomcat",
                "trace io.paysession.gateway.http.SessionController", "debug io.paysession.gateway.http.SessionController",
                "info io.paysession.gateway.http.SessionController", "warn io.paysession.gateway.http.SessionController");
    }
}
