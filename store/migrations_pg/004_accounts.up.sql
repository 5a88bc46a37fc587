-- Accounts (docs/accounts.md), as SQLite's 004_accounts: skeleton is the
-- name's confusable skeleton, unique among accounts; hash is argon2id in
-- PHC string form.
CREATE TABLE accounts (
    player           TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    skeleton         TEXT NOT NULL,
    hash             TEXT NOT NULL,
    created          BIGINT NOT NULL,
    password_changed BIGINT NOT NULL
);
CREATE UNIQUE INDEX accounts_skeleton ON accounts(skeleton);
-- An account lists and revokes its sessions by player.
CREATE INDEX sessions_player ON sessions(player);
