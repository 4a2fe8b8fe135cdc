-- Public tokens are bearer secrets: the table keeps only their SHA-256 (hex, 64 characters, so the column
-- fits), so that a lookup compares hashes, never the token itself, and a copy of the table grants nothing.
update public_token set token = encode(sha256(convert_to(token, 'UTF8')), 'hex');
comment on column public_token.token is 'SHA-256 of the public token, lower-case hex';
