-- Whether a seat's player held an account when they sat down (1) or was a
-- guest (0): tables mark an account's seats, so a guest who took a name
-- before its owner claimed it cannot pass for them.
ALTER TABLE seats ADD COLUMN account INTEGER NOT NULL DEFAULT 0;
