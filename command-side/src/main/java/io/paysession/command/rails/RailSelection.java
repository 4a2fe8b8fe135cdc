package io.paysession.command.rails;

import io.paysession.api.session.BankAppMethod;
import io.paysession.api.session.CardMethod;
import io.paysession.api.session.FasterPaymentBindingMethod;
import io.paysession.api.session.FasterPaymentMethod;
import io.paysession.api.session.PaymentMethod;
import io.paysession.api.session.QrAppMethod;
import io.paysession.api.session.RecurrentMethod;
import io.paysession.api.session.WalletMethod;
import io.paysession.command.RefusedConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which adapters serve the rails: {@code payments.rails} ({@code PAYMENTS_RAILS}). {@code sandbox} runs the
 * simulated rails of decisions.md section 4 and their hosted payer pages; any other value names the real
 * adapters, beans an operator's build adds (conditioned on that value), and then no bean of the sandbox
 * exists. Checked before any bean is made, so that a refused configuration touches nothing:
 * <ul>
 * <li>the property must be set: the production profile gives it no default (elsewhere it is {@code sandbox});</li>
 * <li>in the production profile the sandbox needs {@code payments.sandbox.allow-in-production=true} (a staging
 * environment), and is then announced by a WARN at start and in the start-up report;</li>
 * <li>whatever the selection, every rail has an adapter: payments of every method, payouts, and the
 * instant-payment bank directory.</li>
 * </ul>
 */
@Component
public class RailSelection implements BeanFactoryPostProcessor, SmartInitializingSingleton, EnvironmentAware,
        PriorityOrdered {

    public static final String PROPERTY = "payments.rails";
    public static final String SANDBOX = "sandbox";
    public static final String ALLOW_SANDBOX_IN_PRODUCTION = "payments.sandbox.allow-in-production";
    static final String PRODUCTION_PROFILE = "production";

    private static final Logger log = LoggerFactory.getLogger(RailSelection.class);

    /** One payment of every method the API accepts, named as the wire names it. */
    private static final Map<String, PaymentMethod> METHODS = methods();

    private Environment environment;
    private ConfigurableListableBeanFactory beanFactory;
    private String selected;
    private boolean sandboxInProduction;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
        boolean production = environment.acceptsProfiles(Profiles.of(PRODUCTION_PROFILE));
        String value = environment.getProperty(PROPERTY);
        if (value == null && !production) {
            value = SANDBOX; // a context without the application's settings (a test of a module) gets the default
        }
        if (value == null || value.isBlank()) {
            throw new RefusedConfigurationException(
                    PROPERTY + " (PAYMENTS_RAILS) is not set" + (production ? ": the production profile has no default." : "."),
                    "Set it to the name of the real rail adapters, or to sandbox for the simulated rails"
                            + (production ? " together with " + ALLOW_SANDBOX_IN_PRODUCTION
                            + "=true (PAYMENTS_SANDBOX_ALLOW_IN_PRODUCTION), for a staging environment only." : "."));
        }
        selected = value;
        if (isSandbox() && production) {
            if (!environment.getProperty(ALLOW_SANDBOX_IN_PRODUCTION, Boolean.class, false)) {
                throw new RefusedConfigurationException(
                        PROPERTY + "=sandbox in the production profile: the simulated rails approve any valid card "
                                + "number and their hosted pages let anyone holding a payer page's address approve it.",
                        "Configure the real rail adapters, or, for a staging environment only, set "
                                + ALLOW_SANDBOX_IN_PRODUCTION + "=true (PAYMENTS_SANDBOX_ALLOW_IN_PRODUCTION).");
            }
            sandboxInProduction = true;
            log.warn(sandboxWarning());
        }
        List<String> missing = new ArrayList<>();
        if (beanFactory.getBeanNamesForType(PaymentRail.class, true, false).length == 0) {
            missing.add("payments (PaymentRail)");
        }
        if (beanFactory.getBeanNamesForType(PayoutRail.class, true, false).length == 0) {
            missing.add("payouts (PayoutRail)");
        }
        if (beanFactory.getBeanNamesForType(FpsBankDirectory.class, true, false).length == 0) {
            missing.add("the instant-payment bank directory (FpsBankDirectory)");
        }
        if (!missing.isEmpty()) {
            throw noAdapter(String.join(", ", missing));
        }
    }

    /** Every payment method has a rail: a payment nothing can process would wait for ever. */
    @Override
    public void afterSingletonsInstantiated() {
        PaymentRails rails = beanFactory.getBean(PaymentRails.class);
        List<String> uncovered = new ArrayList<>();
        METHODS.forEach((name, method) -> {
            try {
                rails.railFor(method);
            } catch (RuntimeException none) {
                uncovered.add(name);
            }
        });
        if (!uncovered.isEmpty()) {
            throw noAdapter("payments by " + String.join(", ", uncovered));
        }
    }

    private RefusedConfigurationException noAdapter(String what) {
        return new RefusedConfigurationException(PROPERTY + "=" + selected + ": no adapter serves " + what + ".",
                "Add the adapters of these rails (beans of the rail ports, conditioned on " + PROPERTY + "=" + selected
                        + "), or set " + PROPERTY + "=sandbox for the simulated rails.");
    }

    public boolean isSandbox() {
        return SANDBOX.equalsIgnoreCase(selected);
    }

    /** For the start-up report: what serves the rails, said loudly when it is the sandbox in production. */
    public String describe() {
        if (!isSandbox()) {
            return selected + " (real adapters)";
        }
        return sandboxInProduction ? "sandbox IN THE PRODUCTION PROFILE (" + ALLOW_SANDBOX_IN_PRODUCTION
                + "=true): simulated rails, no money moves; staging only" : "sandbox (simulated rails, no money moves)";
    }

    public boolean sandboxInProduction() {
        return sandboxInProduction;
    }

    public static String sandboxWarning() {
        return "SANDBOX RAILS IN THE PRODUCTION PROFILE: " + ALLOW_SANDBOX_IN_PRODUCTION + "=true. Payments are "
                + "simulated (any valid card number is approved, no money moves) and the hosted payer pages answer "
                + "at /sandbox/interactions/*. This is for a staging environment only; never give it to a live partner.";
    }

    private static Map<String, PaymentMethod> methods() {
        CardMethod card = new CardMethod("card_" + "0".repeat(32), "visa", "424242", "4242");
        Map<String, PaymentMethod> methods = new LinkedHashMap<>();
        methods.put("card", card);
        methods.put("wallet", new WalletMethod());
        methods.put("bank_app_pay", new BankAppMethod());
        methods.put("qr_app_pay", new QrAppMethod("79261234567", "mobile_web"));
        methods.put("faster_payment_system", new FasterPaymentMethod(null));
        methods.put("faster_payment_system_binding", new FasterPaymentBindingMethod());
        methods.put("recurrent (card token)", new RecurrentMethod("rt_" + "0".repeat(32),
                RecurrentMethod.Initiator.MERCHANT, card));
        return methods;
    }
}
