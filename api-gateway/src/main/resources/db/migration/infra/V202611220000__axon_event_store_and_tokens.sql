-- Axon Framework's JDBC storage (schema names set in AxonInfrastructureConfiguration).
-- The event store is the only source of truth; every other table can be rebuilt from it.
create table domain_event_entry (
    global_index          bigserial     primary key,
    aggregate_identifier  varchar(255)  not null,
    sequence_number       bigint        not null,
    type                  varchar(255),
    event_identifier      varchar(255)  not null,
    meta_data             bytea,
    payload               bytea         not null,
    payload_revision      varchar(255),
    payload_type          varchar(255)  not null,
    time_stamp            varchar(255)  not null,
    constraint domain_event_entry_aggregate_sequence unique (aggregate_identifier, sequence_number),
    constraint domain_event_entry_event_identifier unique (event_identifier)
);

create table snapshot_event_entry (
    aggregate_identifier  varchar(255)  not null,
    sequence_number       bigint        not null,
    type                  varchar(255)  not null,
    event_identifier      varchar(255)  not null,
    meta_data             bytea,
    payload               bytea         not null,
    payload_revision      varchar(255),
    payload_type          varchar(255)  not null,
    time_stamp            varchar(255)  not null,
    primary key (aggregate_identifier, sequence_number),
    constraint snapshot_event_entry_event_identifier unique (event_identifier)
);

-- Positions of the streaming processors, one row per processor and segment.
create table token_entry (
    processor_name  varchar(255)  not null,
    segment         integer       not null,
    token           bytea,
    token_type      varchar(255),
    timestamp       varchar(255),
    owner           varchar(255),
    primary key (processor_name, segment)
);
