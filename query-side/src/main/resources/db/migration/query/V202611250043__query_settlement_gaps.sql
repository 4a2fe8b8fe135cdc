-- The settlement projection's token as it last stored it: the highest position handled (token_index) and the
-- positions below it not seen yet (settlement_gap), each with the time the projection first saw it missing.
-- A gap older than the gap time-out is a transaction that will never commit (lost in a crash, rolled back):
-- the report's position moves past it, also while no new event arrives.
alter table settlement_position add column token_index bigint;

create table settlement_gap (
    global_index  bigint       primary key,
    seen_at       timestamptz  not null
);
