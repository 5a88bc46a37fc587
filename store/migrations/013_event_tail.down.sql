-- The tail's entries go into events first (a fold leaves rows that events
-- has already: OR IGNORE), so the log loses nothing.
INSERT OR IGNORE INTO events(table_id, seq, seat, chance, text)
SELECT table_id, seq, seat, chance, text FROM event_tail ORDER BY table_id, seq;
DROP TABLE event_tail;
