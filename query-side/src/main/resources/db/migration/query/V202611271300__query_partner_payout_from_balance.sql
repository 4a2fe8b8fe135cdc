-- Issue 18: a partner whose payouts are paid from its balance (admin API payout_from_balance; off by default).
alter table partner_directory add column payout_from_balance boolean not null default false;
