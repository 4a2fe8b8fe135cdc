-- Payer actions the sandbox rails wait for (3-D Secure, wallet, bank and QR applications, instant payments).
-- The id is the unguessable part of the hosted page's address. The order is the rail's own copy of what
-- it was asked to do (a vault token for cards, never a card number).
create table sandbox_interaction (
    id           varchar(64)  primary key,
    session_id   varchar(32)  not null,
    payment_id   varchar(32)  not null,
    kind         varchar(32)  not null,
    rail_order   jsonb        not null,
    state        varchar(16)  not null check (state in ('OPEN', 'RESOLVING', 'APPROVED', 'DECLINED', 'CLOSED')),
    created_at   timestamptz  not null,
    resolved_at  timestamptz
);
create index sandbox_interaction_payment on sandbox_interaction (payment_id);
