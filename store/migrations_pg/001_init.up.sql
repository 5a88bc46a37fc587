-- Cardroom schema, version 1 (PostgreSQL). The columns mean what the
-- SQLite schema's do, with the same types where PostgreSQL has them:
-- times are unix milliseconds (BIGINT) and flags are 0 or 1, so both
-- stores read their rows with the same code (store/postgres.go says why).
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    player     TEXT NOT NULL,
    name       TEXT NOT NULL,
    created    BIGINT NOT NULL,
    expires    BIGINT NOT NULL
);

CREATE TABLE tables (
    id        TEXT PRIMARY KEY,
    game      TEXT NOT NULL,
    options   TEXT NOT NULL,
    private   INTEGER NOT NULL DEFAULT 0,
    invite    TEXT NOT NULL DEFAULT '',
    clock_ms  INTEGER NOT NULL DEFAULT 0,
    bot_level TEXT NOT NULL DEFAULT 'random',
    owner     TEXT NOT NULL DEFAULT '',
    seed      BIGINT NOT NULL,
    created   BIGINT NOT NULL,
    status    TEXT NOT NULL,
    result    TEXT NOT NULL DEFAULT '*',
    finished  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX tables_status ON tables(status);

CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat     INTEGER NOT NULL,
    player   TEXT NOT NULL DEFAULT '',
    name     TEXT NOT NULL DEFAULT '',
    bot      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX seats_player ON seats(player);

-- The event log: exactly a record's entries, in order. The primary key is
-- the concurrency control: two writers of one seq, one wins (23505).
CREATE TABLE events (
    table_id TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    chance   INTEGER NOT NULL,
    text     TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
