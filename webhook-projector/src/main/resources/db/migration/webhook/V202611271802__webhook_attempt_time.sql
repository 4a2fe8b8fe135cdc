-- The dashboard's webhook health reads the last day's attempts of every partner (docs/dashboard.md).
CREATE INDEX webhook_attempt_time ON webhook_attempt (attempted_at);
