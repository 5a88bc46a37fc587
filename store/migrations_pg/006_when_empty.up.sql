-- What a table does when only bots remain: '' or 'pause' pauses, 'end' ends.
ALTER TABLE tables ADD COLUMN when_empty TEXT NOT NULL DEFAULT '';
