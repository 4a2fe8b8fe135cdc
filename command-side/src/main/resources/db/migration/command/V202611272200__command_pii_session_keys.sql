-- The keys personal data in events is encrypted under, and the index the erasure finds a customer's sessions by
-- (docs/erasure.md).

-- One data key per session (more after an erasure), sealed with AES-256-GCM under a key derived from the vault key
-- sealing_key_id names (VaultKeyRing.derivedKey(sealing_key_id, 'pii-session-key-sealing')), the key id as
-- associated data. An erased key keeps its row (when and that it was erased) without the sealed key.
create table pii_session_key (
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
create index pii_session_key_live on pii_session_key (session_id) where erased_at is null;

-- Which sessions hold data of which customer: HMAC-SHA256 of project NUL reference under the index key
-- (pii_index_key, index_key_id names it), so the table names no customer reference.
create table pii_subject_session (
    subject_hash varchar(64) not null,
    index_key_id varchar(64) not null,
    session_id   varchar(32) not null,
    primary key (subject_hash, session_id)
);

-- The key of that index: random, made once, sealed under the vault key like the data keys (and re-sealed when the
-- vault key rotates), so that a customer's hashes stay the same across vault key rotations.
create table pii_index_key (
    key_id         varchar(32)  primary key,
    sealed_key     bytea        not null,
    sealing_key_id varchar(64)  not null,
    created_at     timestamptz  not null
);
