-- Accounts (docs/accounts.md): a guest's player id with a name and a
-- password. The player id is the key, so a claimed guest keeps every seat
-- and game already recorded under it.
--
-- skeleton is the name's confusable skeleton (server/names.go): two names
-- that look alike ("Anna", "anna", "Аnna" with a Cyrillic А, "Ann4"…) have
-- the same one, and the unique index lets only one of them be an account.
-- hash is the argon2id hash in PHC string form, parameters included, so
-- they can be raised later without a migration.
CREATE TABLE accounts (
    player           TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    skeleton         TEXT NOT NULL,
    hash             TEXT NOT NULL,
    created          INTEGER NOT NULL,
    password_changed INTEGER NOT NULL
);
CREATE UNIQUE INDEX accounts_skeleton ON accounts(skeleton);
-- An account lists and revokes its sessions by player.
CREATE INDEX sessions_player ON sessions(player);
