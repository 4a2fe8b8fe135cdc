-- The tables of the erasure prototype (docs/erasure.md). Not a Flyway migration yet: the application does not
-- create them until the feature is wired in (then as db/migration/command/V<timestamp>__command_pii_session_keys.sql).

-- One data key per session (more after an erasure), sealed with AES-256-GCM under a key derived from the vault key
-- sealing_key_id names (VaultKeyRing.derivedKey(sealing_key_id, 'pii-session-key-sealing')), the key id as
-- associated data. An erased key keeps its row (when and that it was erased) without the sealed key.
create table if not exists pii_session_key (
    key_id         varchar(32) primary key,
    session_id     varchar(32) not null,
    project        varchar(64),
    sealed_key     bytea,
    sealing_key_id varchar(64),
    created_at     timestamptz not null,
    erased_at      timestamptz,
    constraint pii_session_key_erased check ((sealed_key is null) = (erased_at is not null)
        and (sealed_key is null or sealing_key_id is not null))
);
create index if not exists pii_session_key_live on pii_session_key (session_id) where erased_at is null;

-- Which sessions hold data of which customer: HMAC-SHA256 of project NUL reference under a key derived from the
-- vault key index_key_id names ('pii-subject-index'), so the table names no customer reference.
create table if not exists pii_subject_session (
    subject_hash varchar(64) not null,
    index_key_id varchar(64) not null,
    session_id   varchar(32) not null,
    primary key (subject_hash, session_id)
);
