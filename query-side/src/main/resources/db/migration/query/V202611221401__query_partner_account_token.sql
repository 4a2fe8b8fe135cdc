-- Whether the operator enabled the payer-account token (bank_account_ru_token) of instant payments.
alter table partner_directory add column bank_account_token boolean not null default false;
