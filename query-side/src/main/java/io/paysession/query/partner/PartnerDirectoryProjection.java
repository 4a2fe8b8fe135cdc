package io.paysession.query.partner;

import io.paysession.api.money.FeeSchedule;
import io.paysession.api.partner.CaptureMode;
import io.paysession.api.partner.FindPartnerQuery;
import io.paysession.api.partner.PartnerRegisteredEvent;
import io.paysession.api.partner.PartnerSettings;
import io.paysession.api.partner.PartnerUpdatedEvent;
import io.paysession.api.partner.PartnerView;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;

/** The registered partners: key, webhook URL, capture mode and fees, by project. */
@Component
@ProcessingGroup(PartnerDirectoryProjection.PROCESSING_GROUP)
public class PartnerDirectoryProjection {

    public static final String PROCESSING_GROUP = "partner-directory";

    private final JdbcTemplate jdbc;

    public PartnerDirectoryProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(PartnerRegisteredEvent event) {
        upsert(event.partnerId().project(), event.settings(), Timestamp.from(event.registeredAt()));
    }

    @EventHandler
    void on(PartnerUpdatedEvent event) {
        upsert(event.partnerId().project(), event.settings(), Timestamp.from(event.updatedAt()));
    }

    private void upsert(String project, PartnerSettings settings, Timestamp at) {
        jdbc.update("""
                        insert into partner_directory (project, public_key_pem, webhook_url, capture_mode, fee_percent_bp,
                                                       fee_fixed, bank_account_token, payout_from_balance,
                                                       registered_at, updated_at, second_public_key_pem)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        on conflict (project) do update set public_key_pem = excluded.public_key_pem,
                            second_public_key_pem = excluded.second_public_key_pem,
                            webhook_url = excluded.webhook_url, capture_mode = excluded.capture_mode,
                            fee_percent_bp = excluded.fee_percent_bp, fee_fixed = excluded.fee_fixed,
                            bank_account_token = excluded.bank_account_token,
                            payout_from_balance = excluded.payout_from_balance, updated_at = excluded.updated_at""",
                project, settings.publicKeyPem(), settings.webhookUrl(), settings.captureMode().wireName(),
                settings.fees().percentBp(), settings.fees().fixed(), settings.bankAccountToken(),
                settings.payoutFromBalance(), at, at, settings.secondPublicKeyPem());
    }

    @QueryHandler
    Optional<PartnerView> handle(FindPartnerQuery query) {
        List<PartnerView> found = jdbc.query("select * from partner_directory where project = ?",
                (row, index) -> new PartnerView(row.getString("project"),
                        new PartnerSettings(row.getString("public_key_pem"), row.getString("webhook_url"),
                                CaptureMode.fromWireName(row.getString("capture_mode")),
                                new FeeSchedule(row.getInt("fee_percent_bp"), row.getLong("fee_fixed")),
                                row.getBoolean("bank_account_token"), row.getBoolean("payout_from_balance"),
                                row.getString("second_public_key_pem")),
                        row.getTimestamp("registered_at").toInstant(), row.getTimestamp("updated_at").toInstant()),
                query.project());
        return found.stream().findFirst();
    }
}
