ALTER TABLE tournaments DROP COLUMN owner_origin;
