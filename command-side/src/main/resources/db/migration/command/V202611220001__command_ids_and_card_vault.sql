-- Ids of the wire format: ps_, pm_, po_, rf_ and a number unique across all nodes.
create sequence session_id_seq start with 1 increment by 1;
create sequence payment_id_seq start with 1 increment by 1;
create sequence payout_id_seq start with 1 increment by 1;
create sequence refund_id_seq start with 1 increment by 1;

-- The card vault: card numbers encrypted with AES-GCM under a key named by key_id (for rotation);
-- the security code is kept encrypted only until the authorization that uses it, then set to null.
create table card_vault (
    token            varchar(64)  primary key,
    project          varchar(64)  not null,
    key_id           varchar(64)  not null,
    pan_ciphertext   bytea        not null,
    cvc_ciphertext   bytea,
    expiry_month     smallint,
    expiry_year      smallint,
    brand            varchar(32)  not null,
    bin              varchar(8)   not null,
    last4            varchar(4)   not null,
    created_at       timestamptz  not null,
    cvc_erased_at    timestamptz
);
