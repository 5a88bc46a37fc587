-- What a table does when every human has left and only bots remain
-- (docs/server.md, "Empty tables"): '' or 'pause' pauses it, 'end' ends it.
ALTER TABLE tables ADD COLUMN when_empty TEXT NOT NULL DEFAULT '';
