package io.paysession.command.session;

import io.paysession.api.session.OperationState;
import io.paysession.api.session.SessionStatus;

import java.util.List;
import java.util.Optional;

import static io.paysession.api.session.OperationState.AWAITING_CONFIRMATION;
import static io.paysession.api.session.OperationState.FAILED;
import static io.paysession.api.session.OperationState.IN_PROGRESS;
import static io.paysession.api.session.OperationState.PROCESSING;
import static io.paysession.api.session.OperationState.SUCCEEDED;
import static io.paysession.api.session.SessionStatus.ACCEPTED;
import static io.paysession.api.session.SessionStatus.CANCELLED;
import static io.paysession.api.session.SessionStatus.CREATED;

/**
 * Every legal transition of a session and its operation, in one table that reads like the spec's
 * "States and transitions". A trigger not listed for the current stage is refused with
 * {@code session_wrong_state}.
 */
final class SessionLifecycle {

    /** The operation column of a stage when the session has no operation yet. */
    static final OperationState NONE = null;

    enum Trigger {
        START_PAYMENT("session/start/payment"),
        PRECHECK_PASSED("the rail's pre-check"),
        PRECHECK_REFUSED("the rail's pre-check"),
        CONFIRM("session/confirm"),
        CANCEL("session/cancel"),
        APPROVED("the rail's authorization"),
        DECLINED("the rail's authorization");

        private final String description;

        Trigger(String description) {
            this.description = description;
        }

        String description() {
            return description;
        }
    }

    record Stage(SessionStatus session, OperationState operation) {
    }

    private record Rule(Trigger trigger, Stage from, Stage to) {
    }

    private static final List<Rule> TABLE = List.of(
            //   trigger                     session      operation                  session      operation
            rule(Trigger.START_PAYMENT,      CREATED,     NONE,                      SessionStatus.IN_PROGRESS, IN_PROGRESS),
            rule(Trigger.PRECHECK_PASSED,    SessionStatus.IN_PROGRESS, IN_PROGRESS, SessionStatus.IN_PROGRESS, AWAITING_CONFIRMATION),
            rule(Trigger.PRECHECK_REFUSED,   SessionStatus.IN_PROGRESS, IN_PROGRESS, CANCELLED,   FAILED),
            rule(Trigger.CONFIRM,            SessionStatus.IN_PROGRESS, AWAITING_CONFIRMATION, SessionStatus.IN_PROGRESS, PROCESSING),
            rule(Trigger.CANCEL,             CREATED,     NONE,                      CANCELLED,   NONE),
            rule(Trigger.CANCEL,             SessionStatus.IN_PROGRESS, AWAITING_CONFIRMATION, CANCELLED, FAILED),
            rule(Trigger.APPROVED,           SessionStatus.IN_PROGRESS, PROCESSING,  ACCEPTED,    SUCCEEDED),
            rule(Trigger.DECLINED,           SessionStatus.IN_PROGRESS, PROCESSING,  CANCELLED,   FAILED)
    );

    private SessionLifecycle() {
    }

    private static Rule rule(Trigger trigger, SessionStatus fromSession, OperationState fromOperation,
                             SessionStatus toSession, OperationState toOperation) {
        return new Rule(trigger, new Stage(fromSession, fromOperation), new Stage(toSession, toOperation));
    }

    /** The stage after {@code trigger}, or empty when the trigger is not allowed in {@code from}. */
    static Optional<Stage> next(Stage from, Trigger trigger) {
        return TABLE.stream()
                .filter(rule -> rule.trigger == trigger && rule.from.equals(from))
                .map(Rule::to)
                .findFirst();
    }

    /** Every stage in which {@code trigger} is allowed; used to explain a refusal. */
    static List<Stage> stagesAllowing(Trigger trigger) {
        return TABLE.stream().filter(rule -> rule.trigger == trigger).map(Rule::from).toList();
    }
}
