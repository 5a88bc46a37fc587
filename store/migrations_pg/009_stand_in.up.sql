-- The seats a bot played for at least once, space-separated like winners.
ALTER TABLE tables ADD COLUMN stand_in TEXT NOT NULL DEFAULT '';
