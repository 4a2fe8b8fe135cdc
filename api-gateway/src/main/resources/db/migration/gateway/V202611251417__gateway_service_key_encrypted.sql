-- The service's private key is kept encrypted (AES-256-GCM) under a key derived from the vault key named in
-- private_key_vault_key_id, never in clear. A clear private_key_pem of an earlier version is encrypted and
-- emptied by the first start of this version (ServiceKeyStore): Flyway cannot, as the vault key is not in SQL.
alter table service_key alter column private_key_pem drop not null;
alter table service_key add column private_key_ciphertext bytea;
alter table service_key add column private_key_vault_key_id varchar(64);
alter table service_key add constraint service_key_private_key_kept check (
    private_key_pem is not null or (private_key_ciphertext is not null and private_key_vault_key_id is not null));
