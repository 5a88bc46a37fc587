-- The event log's tail: a row for each of the writer's commits, its
-- entries encoded by the store (store/tail.go), moved into events in runs
-- per table. Its key is the writer's counter, so a commit appends to its
-- last page instead of writing a page of events for each entry.
CREATE TABLE event_tail (
    id      INTEGER PRIMARY KEY,
    entries BLOB NOT NULL
);
