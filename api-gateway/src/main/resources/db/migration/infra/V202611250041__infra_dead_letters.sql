-- Axon's sequenced dead-letter queue on JDBC (schema names set in DeadLetteringProcessors): the events a
-- streaming processor parked after they kept failing, per processing group and session, in order.
-- Timestamps are ISO-8601 text, as Axon's JDBC queue writes and compares them.
create table dead_letter_entry (
    dead_letter_id       varchar(255)   primary key,
    processing_group     varchar(255)   not null,
    sequence_identifier  varchar(255)   not null,
    sequence_index       bigint         not null,
    message_type         varchar(255)   not null,
    event_identifier     varchar(255)   not null,
    time_stamp           varchar(255)   not null,
    payload_type         varchar(255)   not null,
    payload_revision     varchar(255),
    payload              bytea          not null,
    meta_data            bytea,
    aggregate_type       varchar(255),
    aggregate_identifier varchar(255),
    sequence_number      bigint,
    token_type           varchar(255),
    token                bytea,
    enqueued_at          varchar(255)   not null,
    last_touched         varchar(255),
    processing_started   varchar(255),
    cause_type           varchar(255),
    cause_message        varchar(1023),
    diagnostics          bytea,
    constraint dead_letter_entry_sequence unique (processing_group, sequence_identifier, sequence_index)
);
