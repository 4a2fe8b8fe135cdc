-- Erasures of a customer's personal data (POST /admin/v1/erasures, docs/erasure.md): who asked, when, which sessions'
-- keys were erased, and when everything derived from them was derived again. The customer reference is not kept.
create table erasure_request (
    erasure_id    varchar(40)   primary key,
    project       varchar(64)   not null,
    session_ids   varchar(32)[] not null,
    requested_by  varchar(64)   not null,
    requested_at  timestamptz   not null,
    completed_at  timestamptz
);
