-- Where an entry came from, while its tournament is open: a digest of the
-- entrant's network address salted with the tournament's id (never the
-- address itself, and never sent to a client), so a room can hold a
-- tournament to one entry per address (every entrant plays the same
-- cards, so a second entry would play them knowing them). Cleared when the
-- tournament leaves "open": no entry can be added after that.
ALTER TABLE tournament_entrants ADD COLUMN origin TEXT NOT NULL DEFAULT '';
