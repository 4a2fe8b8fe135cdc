package io.paysession.command.session;

import io.paysession.api.partner.CaptureMode;
import io.paysession.api.session.BankAppMethod;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.WalletMethod;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.quicktheories.generators.SourceDSL.lists;

/**
 * A random life of one session: how it is opened, the payment's amount, then up to {@link #MAX_STEPS} steps.
 * A step is a command of the partner or of the payment process (any of them, in any state, sometimes from
 * another project or about another payment), time passing, or a move that the transition table allows in
 * whatever state the session has reached (so that long sequences get past confirmation, capture and
 * refunds often enough). Steps are plain data: what they mean in the current state is decided when they
 * run ({@link ScenarioRun}).
 * <p>
 * Shrinking: every step is drawn from exactly four numbers, so that shrinking one step does not shift the
 * draws of the steps after it. Each number shrinks towards its smallest value: the step that does nothing
 * ({@link Kind#SKIP}, left out of the description), the first variant, the right party. Shorter lists lose
 * their last steps.
 */
record SessionScenario(long amount, Opening opening, List<Step> steps) {

    static final int MAX_STEPS = 39;

    static final List<Duration> WAITS = List.of(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMinutes(1),
            Duration.ofMinutes(2), Duration.ofMinutes(10), Duration.ofMinutes(20), Duration.ofMinutes(60),
            Duration.ofHours(4), Duration.ofDays(1), Duration.ofDays(5));

    enum MethodKind {
        CARD(new CardMethod("card_0123", "visa", "424242", "4242")),
        WALLET(new WalletMethod()),
        BANK_APP(new BankAppMethod()),
        QR_APP(new QrAppMethod("79261234567", "mobile_web")),
        FPS(new FasterPaymentMethod("tea"));

        private final PaymentMethod method;

        MethodKind(PaymentMethod method) {
            this.method = method;
        }

        PaymentMethod method() {
            return method;
        }

        static MethodKind of(int draw) {
            return values()[draw % values().length];
        }

        @Override
        public String toString() {
            return name().toLowerCase().replace('_', ' ');
        }
    }

    /** What {@code session/create} is given as a draft for the later start. */
    enum Draft {
        NONE, COMPLETE, METHOD_ONLY
    }

    /** How the session comes to exist: init (a session and its payment at once) or create. */
    record Opening(boolean init, MethodKind method, CaptureMode captureMode, Draft draft) {

        @Override
        public String toString() {
            if (init) {
                return "init " + method + " with " + captureMode.name().toLowerCase() + " capture";
            }
            return switch (draft) {
                case NONE -> "create";
                case COMPLETE -> "create with a complete " + method + " draft";
                case METHOD_ONLY -> "create with a draft of only the method, " + method;
            };
        }
    }

    enum Kind {
        SKIP(1), WAIT(6), WAIT_FOR_NEXT_DEADLINE(6), LEGAL_MOVE(50), START(4), PRECHECK_PASSED(4), PRECHECK_REFUSED(2),
        CONFIRM(4), CANCEL(4), AUTHORIZATION(10), CAPTURE(5), CAPTURE_COMPLETED(4), REFUND(6), REFUND_OUTCOME(6);

        /** How often the kind is drawn, relative to the others. */
        private final int weight;

        Kind(int weight) {
            this.weight = weight;
        }

        static final int TOTAL_WEIGHT = Arrays.stream(values()).mapToInt(kind -> kind.weight).sum();

        /** Partner requests name a project; the payment process names a payment. */
        boolean fromPartner() {
            return this == START || this == CONFIRM || this == CANCEL || this == CAPTURE || this == REFUND;
        }

        boolean fromProcess() {
            return this == PRECHECK_PASSED || this == PRECHECK_REFUSED || this == AUTHORIZATION
                    || this == CAPTURE_COMPLETED;
        }

        boolean hasParty() {
            return fromPartner() || fromProcess();
        }

        static Kind of(int draw) {
            int rest = draw;
            for (Kind kind : values()) {
                if (rest < kind.weight) {
                    return kind;
                }
                rest -= kind.weight;
            }
            throw new IllegalArgumentException("no kind for draw " + draw);
        }
    }

    /** How a capture or a refund states its amount. */
    enum AmountKind {
        /** No amount: the whole hold, or all that is left to refund. */
        WHOLE,
        PART,
        /** One minor unit more than the payment's amount. */
        TOO_LARGE,
        OTHER_CURRENCY;

        static AmountKind of(int draw) {
            return values()[draw % values().length];
        }

        String describe(int percent) {
            return switch (this) {
                case WHOLE -> "with no amount";
                case PART -> percent + "% of the payment's amount";
                case TOO_LARGE -> "of more than the payment's amount";
                case OTHER_CURRENCY -> "in another currency";
            };
        }
    }

    /** What the payment process reports from the rail's authorization. */
    enum Outcome {
        APPROVED, HELD, DECLINED, PAYER_ACTION_REQUIRED, UNKNOWN;

        static Outcome of(int draw) {
            return values()[draw % values().length];
        }

        @Override
        public String toString() {
            return name().toLowerCase().replace('_', ' ');
        }
    }

    /** What {@code session/start/payment} gives. */
    enum StartData {
        FULL, WITHOUT_METHOD, NONE;

        static StartData of(int draw) {
            return values()[draw % values().length];
        }
    }

    /**
     * One step. {@code choice} (0..9) and {@code percent} (1..100) pick among the kind's variants; {@code wrong}
     * makes it come from another project, name another payment or an unknown refund.
     */
    record Step(Kind kind, int choice, int percent, boolean wrong) {

        @Override
        public String toString() {
            String text = switch (kind) {
                case SKIP -> "";
                case WAIT -> "wait " + WAITS.get(choice).toString().substring(2).toLowerCase();
                case WAIT_FOR_NEXT_DEADLINE -> "wait for the next deadline";
                case LEGAL_MOVE -> "a legal move (" + choice + "/" + percent + ")";
                case START -> switch (StartData.of(choice)) {
                    case FULL -> "start " + MethodKind.of(percent) + " with " + captureMode(percent) + " capture";
                    case WITHOUT_METHOD -> "start with amount and customer only";
                    case NONE -> "start with no data";
                };
                case PRECHECK_PASSED -> "pre-check passed";
                case PRECHECK_REFUSED -> "pre-check refused";
                case CONFIRM -> "confirm";
                case CANCEL -> "cancel";
                case AUTHORIZATION -> "authorization " + Outcome.of(choice);
                case CAPTURE -> "capture " + AmountKind.of(choice).describe(percent);
                case CAPTURE_COMPLETED -> "capture completed";
                case REFUND -> "refund " + AmountKind.of(choice).describe(percent);
                case REFUND_OUTCOME -> (choice % 2 == 0 ? "refund accepted" : "refund declined")
                        + (wrong ? " for an unknown refund" : " for a requested refund (" + percent + ")");
            };
            if (!wrong || kind == Kind.REFUND_OUTCOME || !kind.hasParty()) {
                return text;
            }
            return text + (kind.fromPartner() ? " by another project" : " for another payment");
        }

        boolean isSkip() {
            return kind == Kind.SKIP;
        }
    }

    static CaptureMode captureMode(int draw) {
        return (draw / MethodKind.values().length) % 2 == 0 ? CaptureMode.AUTO : CaptureMode.DELAYED;
    }

    static Gen<SessionScenario> scenarios() {
        Gen<Long> amounts = Generate.longRange(1, 1_000_000, 10_000);
        return amounts.zip(openingGen(), lists().of(stepGen()).ofSizeBetween(0, MAX_STEPS), SessionScenario::new)
                .describedAs(SessionScenario::toString);
    }

    private static Gen<Opening> openingGen() {
        // init is the common way in; create leaves the start (and its data rules) to the steps
        return Generate.range(0, 9).zip(Generate.range(0, 9), Generate.range(0, 9), (way, method, mode) -> {
            boolean init = way < 6;
            Draft draft = init ? Draft.NONE : Draft.values()[way % 3];
            return new Opening(init, MethodKind.of(method), mode % 2 == 0 ? CaptureMode.AUTO : CaptureMode.DELAYED,
                    draft);
        });
    }

    private static Gen<Step> stepGen() {
        return Generate.range(0, Kind.TOTAL_WEIGHT - 1).zip(Generate.range(0, 9), Generate.range(1, 100, 1),
                Generate.range(0, 7), (kind, choice, percent, party) -> new Step(Kind.of(kind), choice, percent,
                        party == 7));
    }

    @Override
    public String toString() {
        List<String> described = new ArrayList<>();
        described.add("amount " + amount);
        described.add(opening.toString());
        steps.stream().filter(step -> !step.isSkip()).map(Step::toString).forEach(described::add);
        return described.stream().collect(Collectors.joining(", ", "[", "]"));
    }
}
