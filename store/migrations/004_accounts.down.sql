-- Undoes 004_accounts.
DROP INDEX sessions_player;
DROP INDEX accounts_skeleton;
DROP TABLE accounts;
