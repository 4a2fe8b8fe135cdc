package io.paysession.command.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.ConfirmSessionCommand;
import io.paysession.api.session.CreateSessionCommand;
import io.paysession.api.session.CustomerInteraction;
import io.paysession.api.session.InitPaymentCommand;
import io.paysession.api.session.MarkPaymentReadyToConfirmCommand;
import io.paysession.api.session.OperationState;
import io.paysession.api.session.PaymentActionRequiredEvent;
import io.paysession.api.session.PaymentAuthorizedEvent;
import io.paysession.api.session.PaymentCaptureRequestedEvent;
import io.paysession.api.session.PaymentConfirmedEvent;
import io.paysession.api.session.PaymentData;
import io.paysession.api.session.PaymentFailedEvent;
import io.paysession.api.session.PaymentId;
import io.paysession.api.session.PaymentOutcomeOverdueEvent;
import io.paysession.api.session.PaymentOutcomeQueryRequestedEvent;
import io.paysession.api.session.PaymentOutcomeUnknownEvent;
import io.paysession.api.session.PaymentReadyToConfirmEvent;
import io.paysession.api.session.PaymentStartedEvent;
import io.paysession.api.session.PaymentSucceededEvent;
import io.paysession.api.session.RecordPaymentAuthorizationCommand;
import io.paysession.api.session.RecordCaptureOutcomeUnknownCommand;
import io.paysession.api.session.RecordPaymentCaptureCommand;
import io.paysession.api.session.RefundId;
import io.paysession.api.session.RefundSessionCommand;
import io.paysession.api.session.RefusePaymentCommand;
import io.paysession.api.session.SessionCancelledEvent;
import io.paysession.api.session.SessionId;
import io.paysession.api.session.SessionStatus;
import io.paysession.api.session.StartPaymentCommand;
import io.paysession.api.session.TransactionInfo;
import io.paysession.command.session.SessionLifecycle.Rule;
import io.paysession.command.session.SessionLifecycle.Trigger;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.axonframework.test.aggregate.ResultValidator;
import org.axonframework.test.aggregate.TestExecutor;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.hamcrest.TypeSafeMatcher;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import static io.paysession.api.session.OperationState.AWAITING_CAPTURE;
import static io.paysession.api.session.OperationState.AWAITING_CONFIRMATION;
import static io.paysession.api.session.OperationState.AWAITING_PAYER_ACTION;
import static io.paysession.api.session.OperationState.CAPTURING;
import static io.paysession.api.session.OperationState.ERROR;
import static io.paysession.api.session.OperationState.FAILED;
import static io.paysession.api.session.OperationState.IN_PROGRESS;
import static io.paysession.api.session.OperationState.OUTCOME_UNKNOWN;
import static io.paysession.api.session.OperationState.PROCESSING;
import static io.paysession.api.session.OperationState.SUCCEEDED;

/**
 * Walks {@link SessionLifecycle}'s table with the aggregate, every row and every gap, so that the table and the
 * aggregate cannot drift apart unnoticed: each row is taken (its trigger accepted, the payment left in the row's
 * state), each command whose trigger has no row for a state is refused with {@code session_wrong_state} and
 * stores nothing, and time changes nothing in a state without a time limit. Each state is reached by
 * commands, so the deadlines of the states passed through are scheduled and must be ignored.
 */
class SessionLifecycleWalkTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:15:30.123456Z");
    private static final SessionId SESSION = SessionId.of("ps_1");
    private static final PaymentId PAYMENT = PaymentId.of("pm_7");
    private static final String PROJECT = "shop";
    private static final PaymentData CARD_PAYMENT = new PaymentData(
            new CardMethod("card_0123", "visa", "424242", "4242"), Money.of(10_000, "rub"),
            JsonNodeFactory.instance.objectNode().put("reference", "lucky"), null, null, null, null);
    private static final PartnerTerms DELAYED = new PartnerTerms(CaptureMode.DELAYED, new FeeSchedule(250, 30));
    private static final TransactionInfo AUTH = TransactionInfo.card("123456789012", "A1B2C3");
    /** Long enough for every time limit of decisions.md section 6 to pass. */
    private static final Duration LONGER_THAN_ANY_LIMIT = Duration.ofDays(6);

    /** A state of the walk: the table's session column matters only while there is no payment. */
    private record Place(SessionStatus session, OperationState payment) {

        @Override
        public String toString() {
            return payment == null ? "no payment, session " + session.wireName() : payment.name();
        }
    }

    private static final List<Place> PLACES = Stream.concat(
            Stream.of(new Place(SessionStatus.CREATED, null), new Place(SessionStatus.CANCELLED, null)),
            Arrays.stream(OperationState.values()).map(state -> new Place(null, state))).toList();

    private static final Set<Trigger> TIME_LIMITS = EnumSet.of(Trigger.CONFIRM_TIMEOUT, Trigger.PAYER_ACTION_TIMEOUT,
            Trigger.CAPTURE_TIMEOUT, Trigger.OUTCOME_QUERY_DUE);

    @TestFactory
    Stream<DynamicTest> everyRowOfTheTableIsTakenByTheAggregate() {
        return SessionLifecycle.rules().stream().filter(rule -> !rule.trigger().isPayoutOnly())
                .map(rule -> DynamicTest.dynamicTest(describe(rule), () -> {
            Place from = new Place(rule.session(), rule.from());
            ResultValidator<Session> result = rule.trigger() == Trigger.OUTCOME_OVERDUE
                    ? overdueFrom(from)
                    : TIME_LIMITS.contains(rule.trigger())
                    ? reach(from, waitFor(rule)).whenTimeElapses(LONGER_THAN_ANY_LIMIT)
                    : reach(from).when(command(rule.trigger())).expectSuccessfulHandlerExecution();
            result.expectEventsMatching(leadTo(rule.from(), rule.to()));
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyCommandWithoutARowInAStateIsRefusedAsWrongState() {
        return PLACES.stream().flatMap(place -> Arrays.stream(Trigger.values())
                .filter(trigger -> !TIME_LIMITS.contains(trigger) && !trigger.isPayoutOnly()
                        && trigger != Trigger.OUTCOME_OVERDUE)
                .filter(trigger -> !SessionLifecycle.next(status(place), place.payment(), trigger).allowed())
                .map(trigger -> DynamicTest.dynamicTest(place + ": " + trigger, () ->
                        reach(place).when(command(trigger))
                                .expectException(wrongState())
                                .expectNoEvents())));
    }

    @TestFactory
    Stream<DynamicTest> timeChangesNothingInAStateWithoutATimeLimit() {
        return PLACES.stream()
                .filter(place -> TIME_LIMITS.stream()
                        .allMatch(limit -> !SessionLifecycle.next(status(place), place.payment(), limit).allowed()))
                .map(place -> DynamicTest.dynamicTest(place.toString(), () ->
                        reach(place).whenTimeElapses(LONGER_THAN_ANY_LIMIT).expectNoEvents()));
    }

    private static SessionStatus status(Place place) {
        return place.session() == null ? SessionStatus.IN_PROGRESS : place.session();
    }

    /** A session brought to {@code place} by the commands that lead there, deadlines and all. */
    private static TestExecutor<Session> reach(Place place) {
        return reach(place, List.of());
    }

    /**
     * The overdue row is no command: an outcome still unknown when the rail answers the last query of the first
     * series (one, here) becomes overdue.
     */
    private static ResultValidator<Session> overdueFrom(Place place) {
        return reach(place, List.of(), withQueriesBeforeError(1))
                .andGiven(new PaymentOutcomeQueryRequestedEvent(SESSION, PAYMENT, CARD_PAYMENT.railOrder(DELAYED), 1, NOW))
                .when(command(Trigger.OUTCOME_UNKNOWN))
                .expectSuccessfulHandlerExecution();
    }

    private static SessionTimeLimits withQueriesBeforeError(int queries) {
        SessionTimeLimits defaults = SessionTimeLimits.defaults();
        return new SessionTimeLimits(defaults.confirm(), defaults.qrAppConfirm(), defaults.payerAction(),
                defaults.walletAndBankAppPayerAction(), defaults.capture(), defaults.firstOutcomeQuery(),
                defaults.maxOutcomeQueryInterval(), queries);
    }

    /**
     * Like {@link #reach(Place)}, then {@code more} commands that leave the payment where it is. A payment in
     * error is reached with outcomes overdue at the first unknown answer.
     */
    private static TestExecutor<Session> reach(Place place, List<Object> more) {
        return reach(place, more, place.payment() == ERROR ? withQueriesBeforeError(0) : SessionTimeLimits.defaults());
    }

    private static TestExecutor<Session> reach(Place place, List<Object> more, SessionTimeLimits limits) {
        FixtureConfiguration<Session> fixture = new AggregateTestFixture<>(Session.class);
        fixture.registerInjectableResource(Clock.fixed(NOW, ZoneOffset.UTC));
        fixture.registerInjectableResource(SessionClocks.real(Clock.fixed(NOW, ZoneOffset.UTC)));
        fixture.registerInjectableResource(limits);
        List<Object> commands = new ArrayList<>(commandsTo(place));
        commands.addAll(more);
        return fixture.givenCommands(commands);
    }

    /**
     * What starts the wait a time-limit row ends, where reaching its state does not: a capture is queried only
     * after the rail's answer to it was lost.
     */
    private static List<Object> waitFor(Rule rule) {
        return rule.trigger() == Trigger.OUTCOME_QUERY_DUE && rule.from() == CAPTURING
                ? List.of(command(Trigger.CAPTURE_OUTCOME_UNKNOWN)) : List.of();
    }

    private static List<Object> commandsTo(Place place) {
        if (place.payment() == null) {
            List<Object> commands = new ArrayList<>(List.of(new CreateSessionCommand(SESSION, PROJECT, ApiVersion.V1,
                    null, null)));
            if (place.session() == SessionStatus.CANCELLED) {
                commands.add(new CancelSessionCommand(SESSION, PROJECT));
            }
            return commands;
        }
        List<Object> commands = new ArrayList<>(List.of(
                new InitPaymentCommand(SESSION, PAYMENT, PROJECT, ApiVersion.V1, CARD_PAYMENT, DELAYED)));
        OperationState state = place.payment();
        if (state == IN_PROGRESS) {
            return commands;
        }
        commands.add(new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT));
        if (state == AWAITING_CONFIRMATION) {
            return commands;
        }
        commands.add(new ConfirmSessionCommand(SESSION, PROJECT));
        switch (state) {
            case PROCESSING -> {
            }
            case AWAITING_PAYER_ACTION -> commands.add(command(Trigger.PAYER_ACTION_REQUIRED));
            case OUTCOME_UNKNOWN, ERROR -> commands.add(command(Trigger.OUTCOME_UNKNOWN));
            case AWAITING_CAPTURE -> commands.add(command(Trigger.HELD));
            case CAPTURING -> commands.addAll(List.of(command(Trigger.HELD), command(Trigger.CAPTURE)));
            case SUCCEEDED -> commands.add(command(Trigger.APPROVED));
            case FAILED -> commands.add(command(Trigger.DECLINED));
            default -> throw new IllegalArgumentException("no way to " + state);
        }
        return commands;
    }

    /** The command that acts as {@code trigger}. */
    private static Object command(Trigger trigger) {
        return switch (trigger) {
            case START_PAYMENT -> new StartPaymentCommand(SESSION, PAYMENT, PROJECT, CARD_PAYMENT, DELAYED);
            case PRECHECK_PASSED -> new MarkPaymentReadyToConfirmCommand(SESSION, PAYMENT);
            case PRECHECK_REFUSED -> new RefusePaymentCommand(SESSION, PAYMENT,
                    ErrorDetails.of(ErrorCode.BANK_CARD_EXPIRED, "The card expired"));
            case CONFIRM -> new ConfirmSessionCommand(SESSION, PROJECT);
            case CANCEL -> new CancelSessionCommand(SESSION, PROJECT);
            case PAYER_ACTION_REQUIRED -> authorization(new AuthorizationOutcome.PayerActionRequired(
                    new CustomerInteraction.InformQr("https://pay.example/qr")));
            case OUTCOME_UNKNOWN -> authorization(new AuthorizationOutcome.Unknown(
                    ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "no answer")));
            case APPROVED -> authorization(new AuthorizationOutcome.Approved(AUTH));
            case HELD -> authorization(new AuthorizationOutcome.Held(AUTH));
            case DECLINED -> authorization(new AuthorizationOutcome.Declined(
                    ErrorDetails.of(ErrorCode.INSUFFICIENT_FUNDS, "Insufficient funds")));
            case CAPTURE -> new CaptureSessionCommand(SESSION, PROJECT, null);
            case CAPTURE_COMPLETED -> new RecordPaymentCaptureCommand(SESSION, PAYMENT, AUTH);
            case CAPTURE_OUTCOME_UNKNOWN -> new RecordCaptureOutcomeUnknownCommand(SESSION, PAYMENT,
                    ErrorDetails.of(ErrorCode.PROVIDER_TIMEOUT, "no answer"));
            case REFUND -> new RefundSessionCommand(SESSION, RefundId.of(1), PROJECT, null, null);
            case CONFIRM_TIMEOUT, PAYER_ACTION_TIMEOUT, CAPTURE_TIMEOUT, OUTCOME_QUERY_DUE ->
                    throw new IllegalArgumentException(trigger + " is a time limit, not a command");
            case START_PAYOUT, CONFIRM_AUTOMATICALLY ->
                    throw new IllegalArgumentException(trigger + " is a payout's; SessionPayoutTest takes those rows");
            case OUTCOME_OVERDUE -> throw new IllegalArgumentException(trigger + " follows an unknown answer");
        };
    }

    private static RecordPaymentAuthorizationCommand authorization(AuthorizationOutcome outcome) {
        return new RecordPaymentAuthorizationCommand(SESSION, PAYMENT, outcome);
    }

    /** Events were stored, and the payment's state they lead to from {@code from} is {@code to}. */
    private static Matcher<List<EventMessage<?>>> leadTo(OperationState from, OperationState to) {
        return new TypeSafeMatcher<>() {
            @Override
            protected boolean matchesSafely(List<EventMessage<?>> events) {
                OperationState state = from;
                for (EventMessage<?> event : events) {
                    state = after(state, event.getPayload());
                }
                return !events.isEmpty() && Objects.equals(state, to);
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("events that leave the payment " + to);
            }
        };
    }

    private static final Map<Class<?>, OperationState> ENTERS = Map.of(
            PaymentStartedEvent.class, IN_PROGRESS,
            PaymentReadyToConfirmEvent.class, AWAITING_CONFIRMATION,
            PaymentConfirmedEvent.class, PROCESSING,
            PaymentActionRequiredEvent.class, AWAITING_PAYER_ACTION,
            PaymentOutcomeUnknownEvent.class, OUTCOME_UNKNOWN,
            PaymentOutcomeOverdueEvent.class, ERROR,
            PaymentAuthorizedEvent.class, AWAITING_CAPTURE,
            PaymentCaptureRequestedEvent.class, CAPTURING,
            PaymentSucceededEvent.class, SUCCEEDED,
            PaymentFailedEvent.class, FAILED);

    /** A cancellation fails an unfinished payment; events not listed (hold released, refunds, queries) leave it. */
    private static OperationState after(OperationState state, Object event) {
        if (event instanceof SessionCancelledEvent) {
            return state == null ? null : FAILED;
        }
        if (event instanceof PaymentOutcomeUnknownEvent && state == ERROR) {
            return ERROR;
        }
        return ENTERS.getOrDefault(event.getClass(), state);
    }

    private static Matcher<Throwable> wrongState() {
        return new TypeSafeMatcher<>() {
            @Override
            protected boolean matchesSafely(Throwable item) {
                return item instanceof PaymentsException refusal && refusal.code() == ErrorCode.SESSION_WRONG_STATE;
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("a PaymentsException with code session_wrong_state");
            }
        };
    }

    private static String describe(Rule rule) {
        return (rule.from() == null ? "no payment, session " + rule.session().wireName() : rule.from().name())
                + " --" + rule.trigger() + "-> " + (rule.to() == null ? "no payment" : rule.to().name());
    }
}
