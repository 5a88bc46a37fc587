-- Where a tournament was created from, while it is unfinished: a digest
-- of its creator's network address salted with the tournament's id (never
-- the address itself, and never sent to a client), so a room can bound the
-- unfinished tournaments one address created (-tournaments-per-ip). Cleared
-- when the tournament finishes or is cancelled.
ALTER TABLE tournaments ADD COLUMN owner_origin TEXT NOT NULL DEFAULT '';
