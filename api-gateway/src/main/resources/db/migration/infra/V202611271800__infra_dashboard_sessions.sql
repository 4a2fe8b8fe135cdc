-- The operator dashboard's sign-ins (docs/dashboard.md): a row per signed-in browser, found by the SHA-256 of
-- its cookie (the cookie itself is never stored), with the CSRF token its forms carry and an idle expiry.
-- In PostgreSQL so that every node of a cluster knows every sign-in and a sign-out ends it everywhere.
create table dashboard_session (
    cookie_hash  varchar(64)  primary key,
    csrf_token   varchar(64)  not null,
    created_at   timestamptz  not null,
    expires_at   timestamptz  not null
);
create index dashboard_session_expires on dashboard_session (expires_at);
