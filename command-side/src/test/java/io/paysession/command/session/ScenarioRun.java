package io.paysession.command.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paysession.api.error.ErrorCode;
import io.paysession.api.error.ErrorDetails;
import io.paysession.api.error.PaymentsException;
import io.paysession.api.money.FeeSchedule;
import io.paysession.api.money.Money;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerTerms;
import io.paysession.api.session.ApiVersion;
import io.paysession.api.session.AuthorizationOutcome;
import io.paysession.api.session.CancelSessionCommand;
import io.paysession.api.session.CaptureSessionCommand;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.CreateSessionCommand;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.InitPaymentCommand;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentHoldReleasedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.PaymentCaptureQueryRequestedEvent;
import io.paysession.api.session.PaymentOutcomeOverdueEvent;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.RecordCaptureOutcomeUnknownCommand;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RecordRefundOutcomeCommand;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.StartPaymentCommand;
import io.paysession.api.session.TransactionInfo;
import io.paysession.command.session.SessionLifecycle.Rule;
import io.paysession.command.session.SessionLifecycle.Trigger;
import io.paysession.command.session.SessionScenario.AmountKind;
import io.paysession.command.session.SessionScenario.Draft;
import io.paysession.command.session.SessionScenario.MethodKind;
import io.paysession.command.session.SessionScenario.Outcome;
import io.paysession.command.session.SessionScenario.StartData;
import io.paysession.command.session.SessionScenario.Step;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static io.paysession.api.session.OperationState.FAILED;

/**
 * Plays one {@link SessionScenario} against a {@link SessionDriver} and checks, after each step:
 * <ul>
 *   <li>[answers] every command is answered with success or a {@link PaymentsException} (never anything else),
 *   and with the answer the table and the amounts call for: accepted when the table allows its trigger in
 *   the current state and its data and amount are right, refused with the one fitting error code otherwise
 *   (another project: {@code authorization_error}, whatever the state); a refusal stores nothing; time
 *   passing never makes a deadline handler throw;</li>
 *   <li>[transitions] an accepted command, or a deadline that acts, moves the payment to exactly the state
 *   the table's row names;</li>
 *   <li>everything {@link SessionStream} checks on the events.</li>
 * </ul>
 * A failure carries the transcript of the run: each step, the command it became and what came of it.
 */
final class ScenarioRun {

    private static final PaymentId PAYMENT = PaymentId.of("pm_7");
    private static final PaymentId OTHER_PAYMENT = PaymentId.of("pm_99");
    private static final RefundId UNKNOWN_REFUND = RefundId.of("rf_999");
    private static final String PROJECT = "shop";
    private static final String OTHER_PROJECT = "intruder";
    private static final String CURRENCY = "rub";
    private static final String OTHER_CURRENCY = "usd";
    private static final FeeSchedule FEES = new FeeSchedule(250, 30);
    private static final ObjectNode CUSTOMER = JsonNodeFactory.instance.objectNode().put("reference", "lucky");
    private static final TransactionInfo AUTH = TransactionInfo.card("123456789012", "A1B2C3");
    private static final CustomerInteraction CHALLENGE = new CustomerInteraction.Redirect(
            "https://pay.example/sandbox/interactions/abc", "https://pay.example/sandbox/interactions/abc", "GET",
            Map.of(), Map.of());
    private static final Map<Trigger, String> DEADLINES = Map.of(
            Trigger.CONFIRM_TIMEOUT, Session.CONFIRM_TIMEOUT,
            Trigger.PAYER_ACTION_TIMEOUT, Session.PAYER_ACTION_TIMEOUT,
            Trigger.CAPTURE_TIMEOUT, Session.CAPTURE_TIMEOUT,
            Trigger.OUTCOME_QUERY_DUE, Session.OUTCOME_QUERY);

    /** What a step turned into in the state it met. */
    private sealed interface Action {
        String description();
    }

    /** {@code refusal} is the code the command must be refused with, or {@code null} when it must be accepted. */
    private record Command(String description, Object command, Trigger trigger, ErrorCode refusal)
            implements Action {
    }

    private record Wait(String description, Duration time) implements Action {
    }

    private record Nothing(String description) implements Action {
    }

    private final SessionScenario scenario;
    private final SessionId session;
    private final SessionDriver driver;
    private final SessionStream stream;
    private final ScenarioCoverage coverage;
    /** Written only when a check fails, so each line is kept as the means to write it. */
    private final List<Supplier<String>> transcript = new ArrayList<>();
    private final List<RefundId> requestedRefunds = new ArrayList<>();
    private PaymentData draft = PaymentData.EMPTY;
    private long nextRefund = 1;

    private ScenarioRun(SessionScenario scenario, SessionId session, SessionDriver driver, SessionTimeLimits limits,
                        ScenarioCoverage coverage) {
        this.scenario = scenario;
        this.session = session;
        this.driver = driver;
        this.stream = new SessionStream(session, limits);
        this.coverage = coverage;
    }

    /** Plays {@code scenario} as {@code session} on {@code driver}; an {@link AssertionError} tells what broke. */
    static void play(SessionScenario scenario, SessionId session, SessionDriver driver, SessionTimeLimits limits,
                     ScenarioCoverage coverage) {
        driver.begin(session);
        try {
            new ScenarioRun(scenario, session, driver, limits, coverage).play();
        } finally {
            driver.end();
        }
    }

    private void play() {
        try {
            perform(open(scenario.opening()));
            for (Step step : scenario.steps()) {
                if (!step.isSkip()) {
                    perform(resolve(step));
                }
            }
            coverage.ran(scenario.steps().size() + 1);
        } catch (AssertionError violation) {
            String lines = transcript.stream().map(Supplier::get).collect(Collectors.joining("\n"));
            throw new AssertionError(violation.getMessage() + "\nTranscript of " + session + " (time starts at "
                    + SessionDriver.START + "):\n" + lines, violation.getCause());
        }
    }

    private void perform(Action action) {
        int before = stream.size();
        OperationState stateBefore = stream.state();
        SessionStatus statusBefore = stream.tableStatus();
        if (action instanceof Command command) {
            Optional<Throwable> answer = driver.send(command.command());
            List<SessionEvent> fresh = freshEvents(before);
            log(action, () -> answer.map(ScenarioRun::describe).orElse("accepted") + events(fresh));
            if (answer.isPresent() && !(answer.get() instanceof PaymentsException)) {
                throw new AssertionError("[answers] " + command.command() + " was answered with " + answer.get()
                        + ", not with success or a PaymentsException", answer.get());
            }
            ErrorCode refusal = answer.map(thrown -> ((PaymentsException) thrown).code()).orElse(null);
            if (!Objects.equals(refusal, command.refusal())) {
                throw new AssertionError("[answers] " + command.command() + " should have been "
                        + (command.refusal() == null ? "accepted" : "refused with " + command.refusal().code())
                        + " while the payment is " + stateBefore + ", but was "
                        + (refusal == null ? "accepted" : "refused with " + refusal.code()));
            }
            check(refusal == null || fresh.isEmpty(), () -> "[answers] a refused command stored " + events(fresh));
            check(refusal != null || !fresh.isEmpty(), () -> "[answers] an accepted command stored nothing");
            fresh.forEach(stream::accept);
            if (refusal == null && command.trigger() != null) {
                if (fresh.stream().anyMatch(PaymentOutcomeOverdueEvent.class::isInstance)) {
                    tookRowThenOverdue(statusBefore, stateBefore, command.trigger(), command.description());
                } else {
                    tookRow(statusBefore, stateBefore, command.trigger(), command.description());
                }
            }
            coverage.answered(refusal, fresh);
        } else if (action instanceof Wait wait) {
            try {
                driver.letTimePass(wait.time());
            } catch (RuntimeException thrown) {
                log(action, () -> describe(thrown));
                throw new AssertionError("[answers] a deadline handler threw " + thrown, thrown);
            }
            List<SessionEvent> fresh = freshEvents(before);
            Instant now = driver.now();
            log(action, () -> "time is now " + now + events(fresh));
            for (SessionEvent event : fresh) {
                OperationState from = stream.state();
                SessionStatus status = stream.tableStatus();
                Optional<Trigger> trigger = deadlineTrigger(event);
                trigger.ifPresent(limit -> stream.checkDue(limit, event.occurredAt()));
                stream.accept(event);
                trigger.ifPresent(limit -> tookRow(status, from, limit, SessionStream.name(event)));
            }
            coverage.answered(null, fresh);
        } else {
            log(action, () -> "nothing to do");
        }
        stream.checkTimeLimits(driver.now());
    }

    /** [transitions]: the row of the table that the accepted trigger took, and the state it had to lead to. */
    private void tookRow(SessionStatus status, OperationState from, Trigger trigger, String what) {
        SessionLifecycle.Transition row = SessionLifecycle.next(status, from, trigger);
        check(row.allowed(), () -> "[transitions] " + what + " acted as " + trigger + " while the payment is " + from
                + ", which the table does not allow");
        OperationState to = ((SessionLifecycle.Allowed) row).to();
        check(Objects.equals(to, stream.state()), () -> "[transitions] " + trigger + " from " + from
                + " leads to " + to + " in the table, but the payment is now " + stream.state());
        coverage.took(from, trigger);
    }

    /**
     * [transitions]: an unknown answer after the first series of queries takes its row, then the overdue row from
     * the state it led to, which must be where the payment is now.
     */
    private void tookRowThenOverdue(SessionStatus status, OperationState from, Trigger trigger, String what) {
        SessionLifecycle.Transition row = SessionLifecycle.next(status, from, trigger);
        check(row.allowed() && trigger == Trigger.OUTCOME_UNKNOWN, () -> "[transitions] " + what + " acted as "
                + trigger + " while the payment is " + from + " and made the outcome overdue");
        OperationState unknown = ((SessionLifecycle.Allowed) row).to();
        SessionLifecycle.Transition overdue = SessionLifecycle.next(SessionStatus.IN_PROGRESS, unknown,
                Trigger.OUTCOME_OVERDUE);
        check(overdue.allowed() && Objects.equals(((SessionLifecycle.Allowed) overdue).to(), stream.state()),
                () -> "[transitions] " + Trigger.OUTCOME_OVERDUE + " from " + unknown + " does not lead to "
                        + stream.state() + " in the table");
        coverage.took(from, trigger);
        coverage.took(unknown, Trigger.OUTCOME_OVERDUE);
    }

    /** The trigger of a deadline that acted, told by the event it produced. */
    private static Optional<Trigger> deadlineTrigger(SessionEvent event) {
        if (event instanceof PaymentOutcomeQueryRequestedEvent || event instanceof PaymentCaptureQueryRequestedEvent) {
            return Optional.of(Trigger.OUTCOME_QUERY_DUE);
        }
        if (event instanceof PaymentHoldReleasedEvent) {
            return Optional.empty(); // the cancellation that follows tells the trigger
        }
        ErrorCode code = event instanceof SessionCancelledEvent cancelled ? cancelled.error().code()
                : event instanceof PaymentFailedEvent failed ? failed.error().code() : null;
        if (code == ErrorCode.CONFIRM_TIMEOUT) {
            return Optional.of(Trigger.CONFIRM_TIMEOUT);
        }
        if (code == ErrorCode.CAPTURE_TIMEOUT) {
            return Optional.of(Trigger.CAPTURE_TIMEOUT);
        }
        if (code == ErrorCode.ACTION_TIMEOUT || code == ErrorCode.QR_EXPIRED) {
            return Optional.of(Trigger.PAYER_ACTION_TIMEOUT);
        }
        throw new AssertionError("[transitions] time passing produced " + event + ", which no deadline explains");
    }

    private Action open(SessionScenario.Opening opening) {
        PaymentMethod method = opening.method().method();
        if (opening.init()) {
            return new Command(opening.toString(), new InitPaymentCommand(session, PAYMENT, PROJECT, ApiVersion.V1,
                    fullData(method), terms(opening.captureMode())), null, null);
        }
        draft = switch (opening.draft()) {
            case NONE -> PaymentData.EMPTY;
            case COMPLETE -> fullData(method);
            case METHOD_ONLY -> new PaymentData(method, null, null, null, null, null, null);
        };
        return new Command(opening.toString(), new CreateSessionCommand(session, PROJECT, ApiVersion.V2,
                opening.draft() == Draft.NONE ? null : draft, null), null, null);
    }

    private Action resolve(Step step) {
        boolean wrong = step.wrong();
        return switch (step.kind()) {
            case SKIP -> new Nothing("skip");
            case WAIT -> new Wait(step.toString(), SessionScenario.WAITS.get(step.choice()));
            case WAIT_FOR_NEXT_DEADLINE -> driver.untilNextDeadline()
                    .<Action>map(time -> new Wait(step + ": " + time, time))
                    .orElse(new Nothing(step + ": none is scheduled"));
            case LEGAL_MOVE -> legalMove(step);
            case START -> start(StartData.of(step.choice()), MethodKind.of(step.percent()),
                    SessionScenario.captureMode(step.percent()), wrong, step.toString());
            case PRECHECK_PASSED -> fromProcess(step.toString(),
                    new MarkPaymentReadyToConfirmCommand(session, payment(wrong)), Trigger.PRECHECK_PASSED, wrong);
            case PRECHECK_REFUSED -> fromProcess(step.toString(), new RefusePaymentCommand(session, payment(wrong),
                    ErrorDetails.of(ErrorCode.BANK_CARD_EXPIRED, "The card expired")), Trigger.PRECHECK_REFUSED, wrong);
            case CONFIRM -> fromPartner(step.toString(), new ConfirmSessionCommand(session, project(wrong)),
                    Trigger.CONFIRM, wrong);
            case CANCEL -> fromPartner(step.toString(), new CancelSessionCommand(session, project(wrong)),
                    Trigger.CANCEL, wrong);
            case AUTHORIZATION -> authorization(Outcome.of(step.choice()), wrong, step.toString());
            case CAPTURE -> capture(AmountKind.of(step.choice()), step.percent(), wrong, step.toString());
            case CAPTURE_COMPLETED -> fromProcess(step.toString(),
                    new RecordPaymentCaptureCommand(session, payment(wrong), AUTH), Trigger.CAPTURE_COMPLETED, wrong);
            case REFUND -> refund(AmountKind.of(step.choice()), step.percent(), wrong, step.toString());
            case REFUND_OUTCOME -> refundOutcome(step.choice() % 2 == 0,
                    wrong || requestedRefunds.isEmpty() ? UNKNOWN_REFUND
                            : requestedRefunds.get(step.percent() % requestedRefunds.size()), step.toString());
        };
    }

    /**
     * A move the table allows in the current state: three times in four one that keeps the payment going (so
     * that runs get deep: confirmation, capture, refunds), otherwise one that ends it. A time limit is moved to
     * by letting time pass until it is due; a capture or a refund may still name a wrong amount, and a refund's
     * move may be the rail's answer to one in progress.
     */
    private Action legalMove(Step step) {
        OperationState state = stream.state();
        SessionStatus status = stream.tableStatus();
        List<Rule> allowed = SessionLifecycle.rules().stream()
                .filter(rule -> !rule.trigger().isPayoutOnly())
                .filter(rule -> rule.from() == state && (rule.session() == null || rule.session() == status))
                // an overdue outcome is not a move: it follows an unknown answer after the first series of queries
                .filter(rule -> rule.trigger() != Trigger.OUTCOME_OVERDUE)
                // a time limit is a move only while its deadline is scheduled (a query is asked once)
                .filter(rule -> !DEADLINES.containsKey(rule.trigger())
                        || driver.untilDeadline(DEADLINES.get(rule.trigger())).isPresent())
                .toList();
        if (allowed.isEmpty()) {
            return new Nothing(step + ": the table allows nothing more");
        }
        List<Rule> onwards = allowed.stream().filter(rule -> rule.to() != FAILED && rule.to() != null).toList();
        List<Rule> endings = allowed.stream().filter(rule -> !onwards.contains(rule)).toList();
        List<Rule> among = onwards.isEmpty() || (step.percent() > 75 && !endings.isEmpty()) ? endings : onwards;
        Trigger trigger = among.get(step.choice() % among.size()).trigger();
        String description = step + ": " + trigger;
        int choice = step.choice();
        int percent = step.percent();
        return switch (trigger) {
            case START_PAYMENT -> start(StartData.FULL, MethodKind.of(choice), SessionScenario.captureMode(percent),
                    false, description);
            case PRECHECK_PASSED -> fromProcess(description, new MarkPaymentReadyToConfirmCommand(session, PAYMENT),
                    trigger, false);
            case PRECHECK_REFUSED -> fromProcess(description, new RefusePaymentCommand(session, PAYMENT,
                    ErrorDetails.of(ErrorCode.BANK_CARD_EXPIRED, "The card expired")), trigger, false);
            case CONFIRM -> fromPartner(description, new ConfirmSessionCommand(session, PROJECT), trigger, false);
            case CANCEL -> fromPartner(description, new CancelSessionCommand(session, PROJECT), trigger, false);
            case PAYER_ACTION_REQUIRED -> authorization(Outcome.PAYER_ACTION_REQUIRED, false, description);
            case OUTCOME_UNKNOWN -> authorization(Outcome.UNKNOWN, false, description);
            case APPROVED -> authorization(Outcome.APPROVED, false, description);
            case HELD -> authorization(Outcome.HELD, false, description);
            case DECLINED -> authorization(Outcome.DECLINED, false, description);
            case CAPTURE -> capture(AmountKind.of(choice), percent, false, description);
            case CAPTURE_COMPLETED -> fromProcess(description, new RecordPaymentCaptureCommand(session, PAYMENT, AUTH),
                    trigger, false);
            case CAPTURE_OUTCOME_UNKNOWN -> fromProcess(description, new RecordCaptureOutcomeUnknownCommand(session,
                    PAYMENT, ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "no answer")), trigger, false);
            case REFUND -> {
                List<RefundId> running = stream.refundsInFlight();
                yield !running.isEmpty() && choice % 2 == 1
                        ? refundOutcome(percent % 2 == 0, running.get(percent % running.size()), description)
                        : refund(AmountKind.of(choice / 2), percent, false, description);
            }
            case START_PAYOUT, CONFIRM_AUTOMATICALLY ->
                    throw new IllegalStateException(trigger + " is a payout's move; payouts have SessionPayoutTest");
            case OUTCOME_OVERDUE -> throw new IllegalStateException(trigger + " is no move of its own");
            case CONFIRM_TIMEOUT, PAYER_ACTION_TIMEOUT, CAPTURE_TIMEOUT, OUTCOME_QUERY_DUE ->
                    new Wait(description + " in " + driver.untilDeadline(DEADLINES.get(trigger)).orElseThrow(),
                            driver.untilDeadline(DEADLINES.get(trigger)).orElseThrow());
        };
    }

    private Action start(StartData data, MethodKind method, CaptureMode captureMode, boolean wrong,
                         String description) {
        PaymentData given = switch (data) {
            case FULL -> fullData(method.method());
            case WITHOUT_METHOD -> new PaymentData(null, money(scenario.amount()), CUSTOMER, null, null, null, null);
            case NONE -> PaymentData.EMPTY;
        };
        ErrorCode refusal = wrong ? ErrorCode.AUTHORIZATION_ERROR
                : !allows(Trigger.START_PAYMENT) ? ErrorCode.SESSION_WRONG_STATE
                : draft.overriddenBy(given).missingRequiredField().isPresent() ? ErrorCode.INVALID_REQUEST
                : null;
        return new Command(description, new StartPaymentCommand(session, PAYMENT, project(wrong), given,
                terms(captureMode)), Trigger.START_PAYMENT, refusal);
    }

    private Action authorization(Outcome outcome, boolean wrong, String description) {
        AuthorizationOutcome answer = switch (outcome) {
            case APPROVED -> new AuthorizationOutcome.Approved(AUTH);
            case HELD -> new AuthorizationOutcome.Held(AUTH);
            case DECLINED -> new AuthorizationOutcome.Declined(
                    ErrorDetails.of(ErrorCode.INSUFFICIENT_FUNDS, "Insufficient funds"));
            case PAYER_ACTION_REQUIRED -> new AuthorizationOutcome.PayerActionRequired(CHALLENGE);
            case UNKNOWN -> new AuthorizationOutcome.Unknown(ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "no answer"));
        };
        Trigger trigger = switch (outcome) {
            case APPROVED -> Trigger.APPROVED;
            case HELD -> Trigger.HELD;
            case DECLINED -> Trigger.DECLINED;
            case PAYER_ACTION_REQUIRED -> Trigger.PAYER_ACTION_REQUIRED;
            case UNKNOWN -> Trigger.OUTCOME_UNKNOWN;
        };
        return fromProcess(description, new RecordPaymentAuthorizationCommand(session, payment(wrong), answer),
                trigger, wrong);
    }

    private Action capture(AmountKind kind, int percent, boolean wrong, String description) {
        Money amount = amountOf(kind, percent);
        ErrorCode refusal = wrong ? ErrorCode.AUTHORIZATION_ERROR
                : !allows(Trigger.CAPTURE) ? ErrorCode.SESSION_WRONG_STATE
                : kind == AmountKind.OTHER_CURRENCY ? ErrorCode.INVALID_REQUEST
                : kind == AmountKind.TOO_LARGE ? ErrorCode.CAPTURE_AMOUNT_TOO_LARGE
                : null;
        return new Command(description + " [" + (amount == null ? "no amount" : amount) + "]",
                new CaptureSessionCommand(session, project(wrong), amount), Trigger.CAPTURE, refusal);
    }

    private Action refund(AmountKind kind, int percent, boolean wrong, String description) {
        Money amount = amountOf(kind, percent);
        long asked = amount == null ? stream.leftToRefund() : amount.minorUnits();
        ErrorCode refusal = wrong ? ErrorCode.AUTHORIZATION_ERROR
                : !allows(Trigger.REFUND) ? ErrorCode.SESSION_WRONG_STATE
                : kind == AmountKind.OTHER_CURRENCY ? ErrorCode.INVALID_REQUEST
                : asked == 0 || asked > stream.leftToRefund() ? ErrorCode.REFUND_AMOUNT_TOO_LARGE
                : null;
        RefundId refundId = RefundId.of(nextRefund++);
        if (refusal == null) {
            requestedRefunds.add(refundId);
        }
        return new Command(description + " [" + refundId + ", " + (amount == null ? "no amount" : amount) + "]",
                new RefundSessionCommand(session, refundId, project(wrong), amount, null), Trigger.REFUND, refusal);
    }

    /** An answer of the rail about a refund: taken while that refund is in progress, refused otherwise. */
    private Action refundOutcome(boolean accepted, RefundId refundId, String description) {
        ErrorCode refusal = stream.inFlight(refundId) ? null : ErrorCode.SESSION_WRONG_STATE;
        ErrorDetails reason = accepted ? null : ErrorDetails.of(ErrorCode.DECLINED_BY_ISSUER_BANK, "The bank refused");
        return new Command(description + " [" + refundId + "]",
                new RecordRefundOutcomeCommand(session, refundId, accepted, reason), null, refusal);
    }

    private Action fromPartner(String description, Object command, Trigger trigger, boolean wrong) {
        return new Command(description, command, trigger, wrong ? ErrorCode.AUTHORIZATION_ERROR : expected(trigger));
    }

    private Action fromProcess(String description, Object command, Trigger trigger, boolean wrong) {
        return new Command(description, command, trigger, wrong ? ErrorCode.SESSION_WRONG_STATE : expected(trigger));
    }

    private ErrorCode expected(Trigger trigger) {
        return allows(trigger) ? null : ErrorCode.SESSION_WRONG_STATE;
    }

    private boolean allows(Trigger trigger) {
        return stream.exists() && SessionLifecycle.next(stream.tableStatus(), stream.state(), trigger).allowed();
    }

    /** {@code null} for {@link AmountKind#WHOLE}: the command then names no amount. */
    private Money amountOf(AmountKind kind, int percent) {
        long amount = scenario.amount();
        return switch (kind) {
            case WHOLE -> null;
            case PART -> money(Math.max(1, amount * percent / 100));
            case TOO_LARGE -> money(amount + 1);
            case OTHER_CURRENCY -> Money.of(Math.max(1, amount * percent / 100), OTHER_CURRENCY);
        };
    }

    private PaymentData fullData(PaymentMethod method) {
        return new PaymentData(method, money(scenario.amount()), CUSTOMER, null, null,
                JsonNodeFactory.instance.textNode("order 42"), null);
    }

    private static Money money(long minorUnits) {
        return Money.of(minorUnits, CURRENCY);
    }

    private static PartnerTerms terms(CaptureMode captureMode) {
        return new PartnerTerms(captureMode, FEES);
    }

    private static String project(boolean wrong) {
        return wrong ? OTHER_PROJECT : PROJECT;
    }

    private static PaymentId payment(boolean wrong) {
        return wrong ? OTHER_PAYMENT : PAYMENT;
    }

    private List<SessionEvent> freshEvents(int before) {
        return driver.eventsFrom(before);
    }

    private void log(Action action, Supplier<String> result) {
        int line = transcript.size();
        transcript.add(() -> String.format("%3d. %s -> %s", line, action.description(), result.get()));
    }

    private static String events(List<SessionEvent> events) {
        return events.isEmpty() ? "" : events.stream().map(ScenarioRun::describeEvent)
                .collect(Collectors.joining(", ", ": ", ""));
    }

    private static String describeEvent(SessionEvent event) {
        return SessionStream.name(event) + " at " + event.occurredAt();
    }

    private static String describe(Throwable thrown) {
        if (thrown instanceof PaymentsException refusal) {
            return "refused " + refusal.code().code() + " (" + refusal.getMessage() + ")";
        }
        StringWriter trace = new StringWriter();
        thrown.printStackTrace(new PrintWriter(trace));
        return "threw " + trace;
    }

    /** The message is built only when the check fails: the checks run after every event of every run. */
    private static void check(boolean holds, Supplier<String> violation) {
        if (!holds) {
            throw new AssertionError(violation.get());
        }
    }
}
