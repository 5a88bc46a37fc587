-- Only a closed room can go down a migration, and Close folds the tail
-- into events (an open after a crash does too): the tail is empty here.
-- Its rows are the store's own encoding, which SQL cannot read, so a tail
-- that is not empty stops the step rather than lose entries.
CREATE TEMP TABLE event_tail_must_be_empty (n INTEGER CHECK (n = 0));
INSERT INTO event_tail_must_be_empty SELECT count(*) FROM event_tail;
DROP TABLE event_tail_must_be_empty;
DROP TABLE event_tail;
