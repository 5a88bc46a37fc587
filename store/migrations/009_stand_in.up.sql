-- The seats whose player had a bot play for them at least once (absent
-- past the grace period, or out of time), space-separated like winners:
-- "Your finished games" marks the games a bot finished for you.
ALTER TABLE tables ADD COLUMN stand_in TEXT NOT NULL DEFAULT '';
