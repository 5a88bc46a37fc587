-- The event log's tail: entries in the order the writer committed them,
-- moved into events in runs per table (store/tail.go). Its key is the
-- writer's counter, so a commit appends to its last page instead of
-- writing a page of events for each entry.
CREATE TABLE event_tail (
    id       INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    chance   INTEGER NOT NULL,
    text     TEXT NOT NULL
);
