-- Recurrent tokens as recurrent/status shows them; the source is the method the token stands for.
create table recurrent_token (
    token        varchar(64)  primary key,
    project      varchar(64)  not null,
    source       jsonb        not null,
    session_id   varchar(32)  not null,
    payment_id   varchar(32)  not null,
    created_at   timestamptz  not null,
    disabled_at  timestamptz
);
