-- Table chat (docs/protocol.md, "Chat"): the last lines of each table,
-- kept with the table but apart from its event log (a chat line is not a
-- move of the game record), bounded per table by the server.
CREATE TABLE chat_lines (
    table_id TEXT NOT NULL,
    id       INTEGER NOT NULL,
    channel  TEXT NOT NULL,
    player   TEXT NOT NULL,
    name     TEXT NOT NULL,
    seat     INTEGER NOT NULL, -- -1: a spectator
    text     TEXT NOT NULL DEFAULT '',
    phrase   TEXT NOT NULL DEFAULT '',
    at       INTEGER NOT NULL, -- unix ms
    PRIMARY KEY (table_id, id)
) WITHOUT ROWID;

-- The owner's choice: spectators_off = 1 turns the spectators' channel off.
CREATE TABLE chat_settings (
    table_id       TEXT PRIMARY KEY,
    spectators_off INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- Reported lines, for the operator (`cardroom reports`). The line is
-- copied: the table keeps only its last lines.
CREATE TABLE chat_reports (
    id            INTEGER PRIMARY KEY, -- reports are never deleted: ids are not reused
    table_id      TEXT NOT NULL,
    line          INTEGER NOT NULL,
    reporter      TEXT NOT NULL,
    reporter_name TEXT NOT NULL,
    reason        TEXT NOT NULL DEFAULT '',
    at            INTEGER NOT NULL,
    channel       TEXT NOT NULL,
    player        TEXT NOT NULL,
    name          TEXT NOT NULL,
    text          TEXT NOT NULL DEFAULT '',
    phrase        TEXT NOT NULL DEFAULT '',
    line_at       INTEGER NOT NULL,
    UNIQUE (table_id, line, reporter)
);
