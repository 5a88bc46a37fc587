-- Ratings (docs/ratings.md). A table is rated or casual from its creation.
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
-- The rated tables, for the start-up sweep of finished ones not yet rated.
CREATE INDEX tables_rated ON tables(status) WHERE rated = 1;

-- Each player's current rating per game. ordinal is mu - 3 sigma, kept as
-- a column so the leaderboard reads an index instead of sorting everyone.
-- name is the player's name at their latest rated game (bots: bot:LEVEL).
CREATE TABLE ratings (
    player  TEXT NOT NULL,
    game    TEXT NOT NULL,
    name    TEXT NOT NULL,
    mu      REAL NOT NULL,
    sigma   REAL NOT NULL,
    ordinal REAL NOT NULL,
    games   INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (player, game)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings(game, ordinal DESC, player);

-- The tables whose game has been rated: the primary key makes the update
-- happen once per table, whatever restarts or retries happen.
CREATE TABLE rated_games (
    table_id TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    at       INTEGER NOT NULL
) WITHOUT ROWID;

-- One row per player and rated game: the rating before and after it.
CREATE TABLE rating_history (
    table_id     TEXT NOT NULL,
    player       TEXT NOT NULL,
    game         TEXT NOT NULL,
    at           INTEGER NOT NULL,
    rank         INTEGER NOT NULL,
    abandoned    INTEGER NOT NULL,
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    PRIMARY KEY (table_id, player)
) WITHOUT ROWID;
CREATE INDEX rating_history_player ON rating_history(player, at DESC);
