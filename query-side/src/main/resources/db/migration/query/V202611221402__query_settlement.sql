-- The reconciliation read model: one row per settled operation, one per failed operation, and the
-- position in the event store the rows are complete up to.
create table settlement_entry (
    entry_id      varchar(128) primary key,
    project       varchar(64)  not null,
    day           date         not null,
    currency      varchar(3)   not null,
    method        varchar(48)  not null,
    operation     varchar(16)  not null,
    session_id    varchar(32)  not null,
    operation_id  varchar(32)  not null,
    gross         bigint       not null,
    fee           bigint       not null,
    net           bigint       not null,
    global_index  bigint       not null
);
create index settlement_entry_project_day on settlement_entry (project, day);

create table settlement_failure (
    entry_id      varchar(128) primary key,
    project       varchar(64)  not null,
    day           date         not null,
    method        varchar(48)  not null,
    operation     varchar(16)  not null,
    session_id    varchar(32)  not null,
    operation_id  varchar(32)  not null,
    currency      varchar(3),
    amount        bigint,
    error_code    varchar(64)  not null,
    global_index  bigint       not null
);
create index settlement_failure_project_day on settlement_failure (project, day);

create table settlement_position (
    id            smallint     primary key,
    global_index  bigint       not null
);
