-- A partner rotating its key has two at once (docs/security.md): requests verify under either.
alter table partner_directory add column second_public_key_pem text;
