-- Post-game analyses (docs/bots.md, "Post-game analysis"), as SQLite's
-- 010_analyses: one row per seat of a finished table; data is the
-- analysis's JSON when done, the error when failed.
CREATE TABLE analyses (
    table_id TEXT NOT NULL,
    seat     INTEGER NOT NULL,
    status   TEXT NOT NULL,
    data     TEXT NOT NULL DEFAULT '',
    created  BIGINT NOT NULL, -- unix ms
    PRIMARY KEY (table_id, seat)
);
