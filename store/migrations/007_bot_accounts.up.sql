-- Bot accounts (docs/bots.md, "Bot accounts"): an account marked as a bot,
-- for good (there is no unmarking), and the API tokens it connects with.
-- A separate table rather than a column of accounts, so that the accounts
-- code needs no change and a guest can never be a bot.
CREATE TABLE bot_accounts (
    player TEXT PRIMARY KEY,
    since  INTEGER NOT NULL
) WITHOUT ROWID;

-- A bot's API tokens: only the SHA-256 of each is kept (the token is shown
-- once, when it is issued). label is the owner's note ("laptop", "v2").
CREATE TABLE bot_tokens (
    token_hash TEXT PRIMARY KEY,
    player     TEXT NOT NULL,
    label      TEXT NOT NULL,
    created    INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX bot_tokens_player ON bot_tokens(player);
