-- The sandbox rails' own ledger, as a real acquirer keeps one: the answer bound to each operation id
-- (authorize and capture: the payment id; refund: the refund id; payout: the payout id). A second call or
-- a query with the same id reads the bound answer instead of moving money again. Sandbox only; holds no
-- card data (answers carry RRNs, authorization codes and hosted-page addresses).
create table sandbox_rail_ledger (
    kind          varchar(16)  not null check (kind in ('authorize', 'capture', 'refund', 'payout')),
    operation_id  varchar(32)  not null,
    payment_id    varchar(32)  not null,
    amount_minor  bigint,
    currency      varchar(3),
    answer        jsonb        not null,
    created_at    timestamptz  not null,
    settled_at    timestamptz,
    primary key (kind, operation_id)
);
create index sandbox_rail_ledger_payment on sandbox_rail_ledger (payment_id);
