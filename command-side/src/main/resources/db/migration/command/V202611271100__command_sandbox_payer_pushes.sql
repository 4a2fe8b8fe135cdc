-- The sandbox QR-code application's notifications (sberpay/push): one row per push it was asked to send about
-- a payment that waits on a hosted payer page, shown on that page. Sandbox only. The payer's phone number is
-- kept as its last four digits, all a page may show.
create table sandbox_payer_push (
    id              bigserial    primary key,
    interaction_id  varchar(64)  not null,
    phone_last4     varchar(4)   not null,
    sent_at         timestamptz  not null
);
create index sandbox_payer_push_interaction on sandbox_payer_push (interaction_id);
