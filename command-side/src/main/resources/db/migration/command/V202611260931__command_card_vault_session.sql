-- A card that came with a command on a session names that session, so that the security codes of a session
-- are erased together when its payment no longer needs them. Cards stored before have none; the sweeper
-- erases their security codes by age.
alter table card_vault add column session_id varchar(64);
create index card_vault_session_id on card_vault (session_id) where session_id is not null;
-- the sweeper looks for security codes by age
create index card_vault_security_codes_by_age on card_vault (created_at) where cvc_ciphertext is not null;
