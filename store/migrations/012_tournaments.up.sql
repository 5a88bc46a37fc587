-- Duplicate tournaments (docs/tournaments.md). The SQLite store has no
-- 011 (PostgreSQL's leases): numbers keep one meaning in both stores.
--
-- One row per tournament; its entrants in join order (n); and one row per
-- deal an entrant started, naming the table it is played at. done and
-- points are written once that table's game has ended (settled), so the
-- standings need not read the table again. Times are unix ms; 0 is none
-- (start_at 0: the tournament starts when full).
CREATE TABLE tournaments (
    id           TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    options      TEXT NOT NULL,
    deals        INTEGER NOT NULL,
    bot_level    TEXT NOT NULL,
    seed         INTEGER NOT NULL,
    owner        TEXT NOT NULL,
    owner_name   TEXT NOT NULL,
    start_at     INTEGER NOT NULL DEFAULT 0,
    max_entrants INTEGER NOT NULL,
    deal_ms      INTEGER NOT NULL,
    created      INTEGER NOT NULL,
    started      INTEGER NOT NULL DEFAULT 0,
    status       TEXT NOT NULL -- open, running, finished, cancelled
);
CREATE INDEX tournaments_status ON tournaments(status, owner);
CREATE TABLE tournament_entrants (
    tournament TEXT NOT NULL,
    player     TEXT NOT NULL,
    name       TEXT NOT NULL,
    n          INTEGER NOT NULL,
    joined     INTEGER NOT NULL,
    PRIMARY KEY (tournament, player)
) WITHOUT ROWID;
CREATE TABLE tournament_games (
    tournament TEXT NOT NULL,
    player     TEXT NOT NULL,
    deal       INTEGER NOT NULL,
    table_id   TEXT NOT NULL,
    settled    INTEGER NOT NULL DEFAULT 0, -- 1: the table's game has ended
    done       INTEGER NOT NULL DEFAULT 0, -- 1: it ended played to the end
    points     INTEGER NOT NULL DEFAULT 0, -- the entrant's total, when done
    PRIMARY KEY (tournament, player, deal)
) WITHOUT ROWID;
