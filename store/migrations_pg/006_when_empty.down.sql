ALTER TABLE tables DROP COLUMN when_empty;
