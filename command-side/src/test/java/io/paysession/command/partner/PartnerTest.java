package io.paysession.command.partner;

import io.paysession.api.money.FeeSchedule;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.PartnerId;
import io.paysession.api.partner.PartnerRegisteredEvent;
import io.paysession.api.partner.PartnerSettings;
import io.paysession.api.partner.PartnerUpdatedEvent;
import io.paysession.api.partner.RegisterPartnerCommand;
import io.paysession.api.partner.UpdatePartnerCommand;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

class PartnerTest {

    private static final Instant NOW = Instant.parse("2026-11-22T08:00:00.000001Z");
    private static final PartnerId SHOP = PartnerId.of("shop");
    private static final PartnerSettings SETTINGS = new PartnerSettings("-----BEGIN PUBLIC KEY-----\n...",
            "https://shop.example/hooks", CaptureMode.AUTO, new FeeSchedule(250, 30));

    private FixtureConfiguration<Partner> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Partner.class);
        fixture.registerInjectableResource(Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void registrationRecordsTheSettings() {
        fixture.givenNoPriorActivity()
                .when(new RegisterPartnerCommand(SHOP, SETTINGS))
                .expectEvents(new PartnerRegisteredEvent(SHOP, SETTINGS, NOW));
    }

    @Test
    void anUpdateReplacesTheSettings() {
        PartnerSettings delayed = new PartnerSettings(SETTINGS.publicKeyPem(), "https://shop.example/v2/hooks",
                CaptureMode.DELAYED, FeeSchedule.NONE);
        fixture.given(new PartnerRegisteredEvent(SHOP, SETTINGS, NOW))
                .when(new UpdatePartnerCommand(SHOP, delayed))
                .expectEvents(new PartnerUpdatedEvent(SHOP, delayed, NOW));
    }

    @Test
    void thePartnersStreamIsNamedSoNoSessionIdCanCollideWithIt() {
        org.assertj.core.api.Assertions.assertThat(SHOP.toString()).isEqualTo("partner:shop");
    }
}
