package io.paysession.api.settlement;

import java.time.LocalDate;

/** Answers with the {@link SettlementReport} of the read model; {@code withIds} lists the operations of each row. */
public record FindSettlementReportQuery(String project, LocalDate from, LocalDate to, boolean withIds) {
}
