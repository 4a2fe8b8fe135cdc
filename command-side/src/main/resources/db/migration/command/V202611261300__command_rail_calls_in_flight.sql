-- Rail calls started and not answered yet. A process handles an event (a payment to pre-check, authorize,
-- capture, release or refund, a payout to pre-check or send, an outcome to query) by writing one row here in
-- the transaction that moves its processor past the event, and starts the call only after that commit, so
-- that no thread waits for the rail. The row is deleted in the transaction of the command that records the
-- answer. A row whose owner stopped beating in rail_node (the node died), or whose due time has come (a
-- pre-check to ask again, an answer that could not be recorded), is taken by a live node, which handles the
-- event again from the event store: a money-moving call is then only queried (see rail_call).
-- Holds no card data: the event's id, its session, the node and times.
create table rail_call_in_flight (
    event_id    varchar(64)  primary key,
    session_id  varchar(32)  not null,
    owner       varchar(64)  not null,
    due_at      timestamptz  not null,
    attempts    integer      not null default 0
);
create index rail_call_in_flight_due on rail_call_in_flight (due_at);

-- The live nodes: each writes its row every few seconds while it runs and deletes it when it stops.
create table rail_node (
    node_id  varchar(64)  primary key,
    seen_at  timestamptz  not null
);
