-- The operator dashboard lists sessions newest first over every partner (docs/dashboard.md).
create index session_view_created on session_view (created_at);
