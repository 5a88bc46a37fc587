-- Undoes 007_bot_accounts.
DROP INDEX bot_tokens_player;
DROP TABLE bot_tokens;
DROP TABLE bot_accounts;
