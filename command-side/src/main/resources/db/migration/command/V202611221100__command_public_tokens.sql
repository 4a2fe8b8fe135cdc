-- Public tokens of the card-tokenizer widget: one use, 24 hours.
create table public_token (
    token       varchar(64)  primary key,
    project     varchar(64)  not null,
    locale      varchar(8),
    created_at  timestamptz  not null,
    expires_at  timestamptz  not null,
    used_at     timestamptz
);
