-- Ratings (docs/ratings.md), as SQLite's 005_ratings. mu and sigma are
-- doubles (SQLite's REAL is 8 bytes; PostgreSQL's REAL would be 4).
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tables_rated ON tables(status) WHERE rated = 1;

CREATE TABLE ratings (
    player  TEXT NOT NULL,
    game    TEXT NOT NULL,
    name    TEXT NOT NULL,
    mu      DOUBLE PRECISION NOT NULL,
    sigma   DOUBLE PRECISION NOT NULL,
    ordinal DOUBLE PRECISION NOT NULL,
    games   INTEGER NOT NULL,
    updated BIGINT NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX ratings_board ON ratings(game, ordinal DESC, player);

-- The primary key makes a game's rating happen once per table.
CREATE TABLE rated_games (
    table_id TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    at       BIGINT NOT NULL
);

CREATE TABLE rating_history (
    table_id     TEXT NOT NULL,
    player       TEXT NOT NULL,
    game         TEXT NOT NULL,
    at           BIGINT NOT NULL,
    rank         INTEGER NOT NULL,
    abandoned    INTEGER NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, player)
);
CREATE INDEX rating_history_player ON rating_history(player, at DESC);
