-- X-PARTNER-IDEMPOTENCY-KEY (decisions.md section 8): one row per key of a project, kept 24 h. A request
-- claims its key by inserting the row ('running', with a lease); it stores its answer when it ends
-- ('completed'), and later requests with the key are answered from here. The table is shared by all nodes,
-- so a key running on one node is seen as running on every other.
create table idempotency_key (
    project              varchar(64)   not null,
    idempotency_key      varchar(64)   not null,
    -- HMAC-SHA256 of the canonical request (method, path, submerchant, body), keyed by a key derived from
    -- the vault key: a plain hash of a body holding a card number could be reversed by trying numbers
    request_hash         varchar(64)   not null,
    hash_key_id          varchar(64)   not null,
    endpoint             varchar(255)  not null,
    state                varchar(16)   not null,
    owner_request_id     varchar(64)   not null,
    lease_until          timestamptz   not null,
    -- the session the request works on, recorded before its command is sent, so that a request whose node
    -- died can be recognised in the event store by its request id
    session_id           varchar(40),
    response_status      integer,
    response_content_type varchar(128),
    response_body        bytea,
    created_at           timestamptz   not null,
    completed_at         timestamptz,
    expires_at           timestamptz   not null,
    primary key (project, idempotency_key),
    constraint idempotency_key_state check (state in ('running', 'completed'))
);
create index idempotency_key_expiry on idempotency_key (expires_at);

-- Every decision taken on a key, for the audit: a first use, a replay, a mismatch, a refusal while running,
-- and the recovery of a request whose node died. Append-only; outlives the keys.
create table idempotency_decision (
    id                   bigserial     primary key,
    project              varchar(64)   not null,
    idempotency_key      varchar(64)   not null,
    decision             varchar(32)   not null,
    request_id           varchar(64)   not null,
    original_request_id  varchar(64),
    endpoint             varchar(255)  not null,
    session_id           varchar(40),
    response_status      integer,
    decided_at           timestamptz   not null
);
create index idempotency_decision_key on idempotency_decision (project, idempotency_key);
create index idempotency_decision_session on idempotency_decision (session_id);
