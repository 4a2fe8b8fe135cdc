-- The service's RSA key pair that signs webhooks; generated once by the first node that starts.
-- Several rows allow rotation: the active one signs, GET /service/public-key publishes it.
create table service_key (
    key_id           varchar(64)  primary key,
    private_key_pem  text         not null,
    public_key_pem   text         not null,
    active           boolean      not null,
    created_at       timestamptz  not null
);
create unique index service_key_one_active on service_key (active) where active;
