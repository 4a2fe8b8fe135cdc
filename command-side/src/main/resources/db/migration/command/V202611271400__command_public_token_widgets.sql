-- Issue 18: public tokens of the payment widgets, besides the card tokenizer's. A token of the acquiring widget
-- (acquiring_widget) stands for one session of its project: the payer pays it with a card on the service's hosted
-- form, and the token then reads how the payment goes until it expires. settings: what the partner asked for
-- (return addresses, the recurrent checkbox, the amount shown). No card data.
alter table public_token add column kind varchar(16) not null default 'tokenize';
alter table public_token add column session_id varchar(32);
alter table public_token add column settings jsonb;
