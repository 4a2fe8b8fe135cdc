-- The one-off encryption of personal data in events stored before it was encrypted (docs/erasure.md, "Events stored
-- before this change"): every event up to up_to (the store's last position when this version first started) is read
-- and, if it holds personal data in clear, written again encrypted. last_global_index is how far the task has come.
create table pii_stored_events_encryption (
    id                 integer      primary key check (id = 1),
    up_to              bigint       not null,
    last_global_index  bigint       not null,
    events_encrypted   bigint       not null default 0,
    finished_at        timestamptz
);
insert into pii_stored_events_encryption (id, up_to, last_global_index)
select 1, coalesce(max(global_index), -1), -1 from domain_event_entry;
