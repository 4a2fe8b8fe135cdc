-- Outbox of partner webhooks (decisions.md section 10). Rows are written by the webhook-notifications
-- event processor in the same transaction as its token, and sent by the dispatcher of any node.

CREATE TABLE webhook_notification (
    id                 uuid         PRIMARY KEY,           -- derived from the event: the same event never gives a second row
    session_id         varchar(32)  NOT NULL,
    project            varchar(64)  NOT NULL,
    type               varchar(32)  NOT NULL,
    body               text         NOT NULL,              -- the exact bytes that are signed and sent; jsonb would reformat them
    session_sequence   bigint       NOT NULL,              -- the event's sequence in the session: delivery order
    event_global_index bigint,
    state              varchar(16)  NOT NULL CHECK (state IN ('PENDING', 'DELIVERED', 'PARKED')),
    attempts           integer      NOT NULL DEFAULT 0,
    next_attempt_at    timestamptz  NOT NULL,
    created_at         timestamptz  NOT NULL,
    delivered_at       timestamptz,
    last_error         text,
    claimed_until      timestamptz,                        -- lease: another node may claim the row after it
    claimed_by         varchar(128)
);

-- Only pending rows are ever due; delivered ones pile up and must not slow the claim down.
CREATE INDEX webhook_notification_due ON webhook_notification (next_attempt_at) WHERE state = 'PENDING';

-- The per-session ordering check and look-ups of a session's webhooks.
CREATE INDEX webhook_notification_session ON webhook_notification (session_id, session_sequence);

CREATE TABLE webhook_attempt (
    id              bigint       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    notification_id uuid         NOT NULL REFERENCES webhook_notification (id) ON DELETE CASCADE,
    attempt_number  integer      NOT NULL,
    attempted_at    timestamptz  NOT NULL,
    http_status     integer,                               -- null when no answer came (time-out, refused connection)
    latency_ms      bigint       NOT NULL,
    error           text
);

CREATE INDEX webhook_attempt_notification ON webhook_attempt (notification_id, attempt_number);

-- Where each partner wants its webhooks, projected from the partner events.
CREATE TABLE webhook_endpoint (
    project    varchar(64)  PRIMARY KEY,
    url        text         NOT NULL,
    updated_at timestamptz  NOT NULL
);
