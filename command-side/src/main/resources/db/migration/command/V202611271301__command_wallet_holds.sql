-- Issue 18: the balance held against the payouts of partners paid out from their balance (payout_from_balance).
-- One row per payout, from its start until it fails or is cancelled, or, once it succeeded (settled_index: the
-- global index of its success), until the settlement projection is past it. No card data.
create table wallet_hold (
    payout_id      varchar(32)  primary key,
    session_id     varchar(32)  not null,
    project        varchar(64)  not null,
    currency       varchar(3)   not null,
    amount_minor   bigint       not null,
    created_at     timestamptz  not null,
    settled_index  bigint
);
create index wallet_hold_project on wallet_hold (project, currency);
create index wallet_hold_session on wallet_hold (session_id);
