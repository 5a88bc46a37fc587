DROP TABLE bot_tokens;
DROP TABLE bot_accounts;
