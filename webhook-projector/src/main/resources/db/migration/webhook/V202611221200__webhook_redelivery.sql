-- Redelivery by an operator (decisions.md section 10: any notification, parked or not, at any time).
-- A redelivery opens a fresh retry window: the retry policy counts from window_started_at and only the
-- attempts of the current redelivery, so a notification redelivered after 72 h is not parked at its
-- first failure, and its retries start again at the initial interval.

ALTER TABLE webhook_notification ADD COLUMN window_started_at timestamptz;
UPDATE webhook_notification SET window_started_at = created_at;
ALTER TABLE webhook_notification ALTER COLUMN window_started_at SET NOT NULL;

-- how many times an operator asked for it again; an attempt claimed before a redelivery does not
-- settle the redelivered notification (the dispatcher compares this number)
ALTER TABLE webhook_notification ADD COLUMN redeliveries integer NOT NULL DEFAULT 0;

-- which redelivery an attempt belongs to: 0 for the sends that followed the event
ALTER TABLE webhook_attempt ADD COLUMN redelivery integer NOT NULL DEFAULT 0;

-- attempt numbers count on across redeliveries, so they stay unique per notification
CREATE UNIQUE INDEX webhook_attempt_number ON webhook_attempt (notification_id, attempt_number);
DROP INDEX webhook_attempt_notification;

-- Who asked for each redelivery and what the notification was at that moment.
CREATE TABLE webhook_redelivery (
    notification_id uuid         NOT NULL REFERENCES webhook_notification (id) ON DELETE CASCADE,
    number          integer      NOT NULL,              -- webhook_notification.redeliveries after this one
    requested_at    timestamptz  NOT NULL,
    requested_by    varchar(128) NOT NULL,              -- 'admin': the admin API
    operation       varchar(32)  NOT NULL CHECK (operation IN ('redeliver', 'redeliver_parked', 'resend_session')),
    previous_state  varchar(16)  CHECK (previous_state IN ('PENDING', 'DELIVERED', 'PARKED')), -- NULL: not in the outbox, derived again from the events
    PRIMARY KEY (notification_id, number)
);

-- The admin API lists a partner's notifications, and those in a state, newest first.
CREATE INDEX webhook_notification_project ON webhook_notification (project, created_at);
CREATE INDEX webhook_notification_state ON webhook_notification (state, created_at);
