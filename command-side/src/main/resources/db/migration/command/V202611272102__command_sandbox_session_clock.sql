-- The sandbox's time travel (docs/sandbox.md "Time travel"): how far a partner moved a session's time forward, each
-- advance (so that "how long ago, in the session's time" counts only the advances since), and
-- what the operations of the session still have to catch up with of their latest advance (a deadline that fell due
-- because of it sets its follow-up as if it had fired at its own time). Sandbox only; no card data.
create table sandbox_session_clock (
    session_id   varchar(32)  primary key,
    offset_ms    bigint       not null check (offset_ms >= 0),
    advances     integer      not null,
    advanced_at  timestamptz  not null
);

create table sandbox_clock_catch_up (
    session_id    varchar(32)  not null,
    operation_id  varchar(64)  not null,
    remaining_ms  bigint       not null check (remaining_ms >= 0),
    -- a catch-up is over within seconds; one never taken is ignored after this
    expires_at    timestamptz  not null,
    primary key (session_id, operation_id)
);

create table sandbox_clock_advance (
    id           bigserial    primary key,
    session_id   varchar(32)  not null,
    advanced_at  timestamptz  not null,
    duration_ms  bigint       not null check (duration_ms > 0)
);
create index sandbox_clock_advance_session on sandbox_clock_advance (session_id, advanced_at);
