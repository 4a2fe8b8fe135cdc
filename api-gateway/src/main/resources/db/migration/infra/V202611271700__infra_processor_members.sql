-- The nodes that run each streaming processor, for spreading its segments over them (SegmentBalancer). Each
-- node writes its row per processor every second while the processor runs, and deletes it when it stops; a
-- row not written for the node time-out is a dead node's. Holds no payment data.
create table processor_member (
    processor_name  varchar(255)  not null,
    node_id         varchar(255)  not null,
    seen_at         timestamptz   not null,
    primary key (processor_name, node_id)
);
