-- Duplicate tournaments (docs/tournaments.md), as SQLite's 012_tournaments:
-- the tournaments, their entrants in join order (n), and one row per deal
-- an entrant started, with its result once settled. Times are unix ms.
CREATE TABLE tournaments (
    id           TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    options      TEXT NOT NULL,
    deals        INTEGER NOT NULL,
    bot_level    TEXT NOT NULL,
    seed         BIGINT NOT NULL,
    owner        TEXT NOT NULL,
    owner_name   TEXT NOT NULL,
    start_at     BIGINT NOT NULL DEFAULT 0,
    max_entrants INTEGER NOT NULL,
    deal_ms      BIGINT NOT NULL,
    created      BIGINT NOT NULL,
    started      BIGINT NOT NULL DEFAULT 0,
    status       TEXT NOT NULL
);
CREATE INDEX tournaments_status ON tournaments(status, owner);
CREATE TABLE tournament_entrants (
    tournament TEXT NOT NULL,
    player     TEXT NOT NULL,
    name       TEXT NOT NULL,
    n          INTEGER NOT NULL,
    joined     BIGINT NOT NULL,
    PRIMARY KEY (tournament, player)
);
CREATE TABLE tournament_games (
    tournament TEXT NOT NULL,
    player     TEXT NOT NULL,
    deal       INTEGER NOT NULL,
    table_id   TEXT NOT NULL,
    settled    INTEGER NOT NULL DEFAULT 0,
    done       INTEGER NOT NULL DEFAULT 0,
    points     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament, player, deal)
);
