-- The signatures of session/init/payment, session/init/payout and session/refund requests, kept as long as
-- idempotency keys (24 h), so that a captured signed body cannot be run again (docs/idempotency.md, "Signatures").
-- The signature covers only the body (the spec fixes that), so a replay is recognised by the signature itself:
-- one row per project, signature and operation (method and path, any API version).
create table request_signature (
    project              varchar(64)   not null,
    -- SHA-256 (hex) of the signature's decoded bytes
    signature_hash       varchar(64)   not null,
    -- 'POST /api/v*/session/refund': the method and path with the API version left out
    operation            varchar(255)  not null,
    -- the key the body was first sent with; null without one
    idempotency_key      varchar(64),
    request_id           varchar(64)   not null,
    first_seen           timestamptz   not null,
    expires_at           timestamptz   not null,
    primary key (project, signature_hash, operation)
);
create index request_signature_expiry on request_signature (expires_at);
