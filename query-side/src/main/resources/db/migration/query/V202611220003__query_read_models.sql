-- A session as partners see it: the SessionView folded from its events, in no API version's naming.
create table session_view (
    session_id   varchar(32)  primary key,
    project      varchar(64)  not null,
    api_version  varchar(4)   not null,
    status       varchar(16)  not null,
    version      bigint       not null,
    view         jsonb        not null,
    created_at   timestamptz  not null,
    updated_at   timestamptz  not null
);
create index session_view_project_created on session_view (project, created_at);

-- Registered partners, read on every signed request.
create table partner_directory (
    project         varchar(64)  primary key,
    public_key_pem  text         not null,
    webhook_url     text         not null,
    capture_mode    varchar(16)  not null,
    fee_percent_bp  integer      not null,
    fee_fixed       bigint       not null,
    registered_at   timestamptz  not null,
    updated_at      timestamptz  not null
);
