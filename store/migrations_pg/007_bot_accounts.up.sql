-- Bot accounts (docs/bots.md), as SQLite's 007_bot_accounts.
CREATE TABLE bot_accounts (
    player TEXT PRIMARY KEY,
    since  BIGINT NOT NULL
);

CREATE TABLE bot_tokens (
    token_hash TEXT PRIMARY KEY,
    player     TEXT NOT NULL,
    label      TEXT NOT NULL,
    created    BIGINT NOT NULL
);
CREATE INDEX bot_tokens_player ON bot_tokens(player);
