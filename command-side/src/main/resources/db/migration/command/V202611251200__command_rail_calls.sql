-- The rail-call journal: one row per money-moving call (authorize, capture, refund, payout send) and
-- operation id, committed BEFORE the rail is called. A row that already exists means the call may have
-- reached the rail: the engine never makes it again, it asks the rail with the matching query instead.
-- Holds no card data: the kind, the operation id (pm_/rf_/po_) and its session.
create table rail_call (
    kind          varchar(16)  not null check (kind in ('authorize', 'capture', 'refund', 'payout')),
    operation_id  varchar(32)  not null,
    session_id    varchar(32)  not null,
    called_at     timestamptz  not null,
    primary key (kind, operation_id)
);
