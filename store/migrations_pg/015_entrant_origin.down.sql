ALTER TABLE tournament_entrants DROP COLUMN origin;
