-- The sandbox acquirer's chargeback desk: what it will tell the engine about disputed payments. A 'raise' row opens
-- a chargeback of a paid payment (the chargeback test card's, once it succeeded); a 'withhold' row tells the engine
-- the disputed money was withheld. The refund id is chosen when the row is written, so a notice sent twice names
-- the same chargeback. Sandbox only; no card data.
create table sandbox_chargeback (
    id          bigserial    primary key,
    kind        varchar(8)   not null check (kind in ('raise', 'withhold')),
    session_id  varchar(32)  not null,
    refund_id   varchar(32)  not null,
    due_at      timestamptz  not null,
    attempts    integer      not null default 0
);
create index sandbox_chargeback_due on sandbox_chargeback (due_at);
