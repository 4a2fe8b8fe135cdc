-- Service key rotation (docs/security.md): a rotation makes a new key the active one and gives the previous one
-- a retires_at, until which it stays published (GET /service/public-keys) so that partners keep verifying
-- what it signed. After retires_at it is no longer published and its private key is erased (retired_at).
alter table service_key add column activated_at timestamptz;
alter table service_key add column retires_at timestamptz;
alter table service_key add column retired_at timestamptz;
update service_key set activated_at = created_at;
alter table service_key alter column activated_at set not null;
-- a retired key keeps only its public half, for checking what it once signed (an audit export's head, say)
alter table service_key drop constraint service_key_private_key_kept;
alter table service_key add constraint service_key_private_key_kept check (
    retired_at is not null
    or private_key_pem is not null or (private_key_ciphertext is not null and private_key_vault_key_id is not null));
